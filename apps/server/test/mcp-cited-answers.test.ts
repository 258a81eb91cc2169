import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, callerMatrixOnce } from "./support/callers.js"
import { callTool, type McpToolClient, mcpClient } from "./support/mcp.js"
import { TestServerLive } from "./support/server.js"

/**
 * The tools' answers cite what they rest on as `resource_link` parts, after
 * the JSON text, and every link reads back, through `resources/read`, as the
 * text it cites. Reach and refusals of the reads: mcp-content-resources.test.ts.
 */

interface Link {
  readonly type: "resource_link"
  readonly uri: string
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly mimeType?: string
}

interface Answer {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
  readonly structuredContent?: any
  readonly isError?: boolean
}

/** Calls a tool and returns its whole result: its parts in order, its structured content. */
const answer = (client: McpToolClient, name: string, args: Record<string, unknown>) =>
  Effect.promise(() => client.callTool({ name, arguments: args }) as Promise<unknown> as Promise<Answer>)

const linksOf = (result: Answer): ReadonlyArray<Link> =>
  result.content.filter((part): part is Link => part.type === "resource_link") as ReadonlyArray<Link>

const readText = (client: McpToolClient, uri: string) =>
  Effect.promise(() => client.readResource({ uri })).pipe(
    Effect.map(({ contents }) => contents.map((part) => ("text" in part ? part.text : "")).join(""))
  )

/** `#char=<start>,<end>` of a link, or null. */
const charRange = (uri: string): readonly [number, number] | null => {
  const match = /#char=(\d+),(\d+)$/.exec(uri)
  return match === null ? null : [Number(match[1]), Number(match[2])]
}

/** Every `#char=` link reads, without its fragment, as a text holding one of `quotes` exactly at that range. */
const expectQuotesAtTheirRanges = (client: McpToolClient, links: ReadonlyArray<Link>, quotes: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const ranged = links.filter((link) => charRange(link.uri) !== null)
    expect(ranged.length).toBeGreaterThan(0)
    for (const link of ranged) {
      const [start, end] = charRange(link.uri)!
      const text = yield* readText(client, link.uri.slice(0, link.uri.indexOf("#")))
      expect(quotes, link.uri).toContain(text.slice(start, end))
    }
  })

/** A library with more matching chapters than an answer cites: 30 chapters that all mention zebras. */
const zoo = callerMatrixOnce({
  organization: { name: "Zoo" },
  content: [{
    key: "zebras",
    title: "Zebra Handbook",
    chapters: Array.from({ length: 30 }, (_, i) => ({ headline: `Stripe ${i + 1}`, text: `Zebra stripe number ${i + 1} is unique.` }))
  }]
})

layer(TestServerLive, { excludeTestServices: true })("MCP answers cite their evidence as resource links", (it) => {
  it.scoped("get_item links each quote to its chapter with the quote's RFC 5147 range, and the chapter read holds the quote exactly there", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const item = yield* answer(client, "get_item", { itemId: result.ids.items.hotfix! })
      const evidence = item.structuredContent.evidence as ReadonlyArray<{ quote: string; content: { id: string } }>
      const guide = result.ids.content.deployGuide!
      expect(linksOf(item)).toEqual([{
        type: "resource_link",
        uri: `tks://content/${guide}/chapters/2#char=0,63`,
        name: "Deployment Guide, chapter 2",
        title: "Deployment Guide: Hotfixes",
        description: `Evidence for “hotfix policy”: “${evidence[0]!.quote}”`,
        mimeType: "text/plain"
      }])
      yield* expectQuotesAtTheirRanges(client, linksOf(item), evidence.map((e) => e.quote))
    }))

  it.scoped("the structured content and the JSON text stay the answer alone; the links come after the text", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const item = yield* answer(client, "get_item", { itemId: result.ids.items.rollout! })
      expect(item.content.map((part) => part.type)).toEqual(["text", "resource_link"])
      expect(JSON.parse(item.content[0]!.text!)).toEqual(item.structuredContent)
      expect(Object.keys(item.structuredContent)).not.toContain("links")
    }))

  it.scoped("video evidence is linked to its content record with the W3C media fragment #t=<start>,<end>", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const fire = yield* answer(client, "get_item", { itemId: result.ids.items.fire! })
      const video = result.ids.content.fireVideo!
      expect(linksOf(fire).map((link) => link.uri)).toEqual([
        `tks://content/${result.ids.content.safetyGuide!}/chapters/1#char=0,32`,
        `tks://content/${video}#t=30,75`
      ])
      expect(linksOf(fire)[1]).toMatchObject({ name: "Fire Drill Walkthrough", description: "Evidence for “Fire drill”: “Walk calmly to the assembly point”" })
      // The video has no transcript chapters yet: its record reads, as no text.
      const read = yield* Effect.promise(() => client.readResource({ uri: `tks://content/${video}#t=30,75` }))
      expect(read.contents).toEqual([])
    }))

  it.scoped("get_topic links the evidence of its items, in the topic's order, and each link reads as its quote", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const topic = yield* answer(client, "get_topic", { topicId: result.ids.topics.deploy! })
      // The same links, in the same order, as the items' own answers give (rollout, its child canary, hotfix).
      const itemLinks: Array<Link> = []
      const quotes: Array<string> = []
      for (const key of ["rollout", "canary", "hotfix"]) {
        const item = yield* answer(client, "get_item", { itemId: result.ids.items[key]! })
        itemLinks.push(...linksOf(item))
        quotes.push(...item.structuredContent.evidence.map((e: { quote: string }) => e.quote))
      }
      expect(linksOf(topic)).toEqual(itemLinks)
      expect(linksOf(topic)).toHaveLength(3)
      yield* expectQuotesAtTheirRanges(client, linksOf(topic), quotes)
    }))

  it.scoped("search_service links each chapter hit to its chapter, which reads as the text get_content_text gives for it", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const search = yield* answer(client, "search_service", { query: "fire or hotfix or deployment" })
      const hits = search.structuredContent.data as ReadonlyArray<
        { type: string; contentId: string; contentTitle: string; sequence: number }
      >
      const chapters = hits.filter((hit) => hit.type === "chapter")
      expect(chapters.length).toBeGreaterThan(1)
      expect(hits.some((hit) => hit.type === "topic")).toBe(true)
      // Topic hits cite nothing themselves (get_topic does): one link per chapter hit, in rank order.
      expect(linksOf(search).map((link) => link.uri)).toEqual(
        chapters.map((hit) => `tks://content/${hit.contentId}/chapters/${hit.sequence}`)
      )
      for (const hit of chapters) {
        const text = yield* callTool(client, "get_content_text", { contentId: hit.contentId })
        const chapter = text.structured.chapters.find((c: { sequence: number }) => c.sequence === hit.sequence)
        expect(yield* readText(client, `tks://content/${hit.contentId}/chapters/${hit.sequence}`)).toBe(chapter.text)
      }
    }))

  it.scoped("get_content_knowledge links its content record, which reads as the record's chapters, each with its own address", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const guide = result.ids.content.deployGuide!
      const knowledge = yield* answer(client, "get_content_knowledge", { contentId: guide })
      expect(linksOf(knowledge)).toEqual([
        { type: "resource_link", uri: `tks://content/${guide}`, name: "Deployment Guide", mimeType: "text/plain" }
      ])
      const text = yield* callTool(client, "get_content_text", { contentId: guide })
      const read = yield* Effect.promise(() => client.readResource({ uri: `tks://content/${guide}` }))
      expect(read.contents).toEqual(
        text.structured.chapters.map((chapter: { sequence: number; text: string }) => ({
          uri: `tks://content/${guide}/chapters/${chapter.sequence}`,
          mimeType: "text/plain",
          text: chapter.text
        }))
      )
    }))

  it.scoped("an answer cites at most 20 places: a search page of 30 chapter hits carries the first 20, in rank order", () =>
    Effect.gen(function*() {
      const { tokens } = yield* zoo
      const client = yield* mcpClient(tokens.viewer)
      const search = yield* answer(client, "search_service", { query: "zebra", types: ["chapter"], limit: 50 })
      const hits = search.structuredContent.data as ReadonlyArray<{ contentId: string; sequence: number }>
      expect(hits).toHaveLength(30)
      expect(linksOf(search).map((link) => link.uri)).toEqual(
        hits.slice(0, 20).map((hit) => `tks://content/${hit.contentId}/chapters/${hit.sequence}`)
      )
    }))

  it.scoped("tools that rest on no content carry no links", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      for (const name of ["list_categories", "list_content"]) {
        const result = yield* answer(client, name, {})
        expect(result.content.map((part) => part.type), name).toEqual(["text"])
      }
    }))
})
