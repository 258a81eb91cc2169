import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import type { SearchParams, SearchResult } from "@tks/domain/search"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { Search } from "../src/search/service.js"
import { type Imported, importedOnce } from "./support/access.js"

/**
 * How search ranks, highlights and falls back to near spellings (also the
 * search_service tool), on an organization made for it: names and headlines
 * that hold a word, descriptions and texts that hold it, a description full
 * of markup, content that is not published.
 */
const finder: OrgFixtureInput = {
  organization: { name: "Finder" },
  people: [{ key: "fay", name: "Fay Admin", email: "fay@finder.test", role: "admin" }],
  spaces: [{
    key: "help",
    category: "customer-success",
    name: "Help",
    topics: [
      { key: "escalation", name: "Escalation", description: "Who to call when the desk is stuck" },
      { key: "desk", name: "Support desk", description: "When to use escalation, and how" },
      { key: "stucco", name: "Stucco walls", description: "Plaster outside" },
      {
        key: "markup",
        name: "Markup",
        description: "Beware <img src=x onerror=alert(1)> the quokka & \"friends\" 'here' \uE000 a <b> stray \uE001 marker"
      },
      { key: "gone", name: "Escalation (old)", state: "archived" }
    ]
  }],
  content: [
    {
      key: "handbook",
      title: "Escalation handbook",
      chapters: [{ headline: "Escalation", text: "Call the lead." }, { headline: "Daily work", text: "Most days need no escalation at all." }]
    },
    { key: "draft", title: "Escalation draft", status: "draft", chapters: [{ headline: "Escalation escalation", text: "escalation escalation escalation" }] },
    { key: "rejected", title: "Escalation idea", status: "rejected", chapters: [{ headline: "Escalation", text: "escalation" }] }
  ]
}

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Search.Default).pipe(Layer.provideMerge(TestDatabaseLive))
const setup = importedOnce({ finder })

const search = (org: Imported, key: string, params: SearchParams) =>
  Search.pipe(Effect.flatMap((s) => s.search(org.access(key, policies.search.query), params)))

const line = (result: SearchResult) => `${result.type} ${result.title}`

layer(TestLayer)("search: ranking, snippets, types, limit and near spellings", (it) => {
  it.effect("a match in a name or headline outranks one in a description or text; scores descend", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      const page = yield* search(finder, "fay", { query: "escalation" })
      expect(page.nextCursor).toBeNull()
      expect(page.data.slice(0, 2).map(line).sort()).toEqual(["chapter Escalation", "topic Escalation"])
      expect(page.data.slice(2).map(line).sort()).toEqual(["chapter Daily work", "topic Support desk"])
      const scores = page.data.map((r) => r.score)
      expect(scores).toEqual([...scores].sort((a, b) => b - a))
      expect(scores[1]).toBeGreaterThan(scores[2]!)
      for (const score of scores) expect(score).toBeGreaterThan(0.5)
    }))

  it.effect("chapters of content that is not published, and archived topics, are never found", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      const page = yield* search(finder, "fay", { query: "escalation", limit: 50 })
      expect(page.data.map(line)).not.toContain("topic Escalation (old)")
      expect(page.data.filter((r) => r.type === "chapter").map((r) => r.type === "chapter" && r.contentTitle)).toEqual([
        "Escalation handbook",
        "Escalation handbook"
      ])
    }))

  it.effect("a result: snippet with the matched word marked, links, and for a chapter its content and sequence", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      const page = yield* search(finder, "fay", { query: "escalation", types: ["chapter"] })
      const contentId = finder.ids.content.handbook!
      expect(page.data.find((r) => r.title === "Daily work")).toEqual({
        type: "chapter",
        id: expect.any(String),
        title: "Daily work",
        snippet: "Most days need no <mark>escalation</mark> at all.",
        score: expect.any(Number),
        url: `http://localhost:3000/v1/content/${contentId}#chapter-2`,
        contentId,
        contentTitle: "Escalation handbook",
        sequence: 2
      })
      const topics = yield* search(finder, "fay", { query: "escalation", types: ["topic"] })
      expect(topics.data.find((r) => r.title === "Support desk")).toEqual({
        type: "topic",
        id: finder.ids.topics.desk,
        title: "Support desk",
        snippet: "Support desk — When to use <mark>escalation</mark>, and how",
        score: expect.any(Number),
        url: `http://localhost:3000/v1/topics/${finder.ids.topics.desk}`
      })
    }))

  it.effect("a snippet is HTML-safe: the source's markup, quotes and stray markers are escaped or dropped; only <mark> remains", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      const [hit] = (yield* search(finder, "fay", { query: "quokka" })).data
      expect(hit?.title).toBe("Markup")
      const snippet = hit!.snippet
      expect(snippet).toContain("<mark>quokka</mark>")
      expect(snippet).toContain("&amp;")
      expect(snippet).toContain("&quot;friends&quot;")
      expect(snippet).toContain("&#39;here&#39;")
      expect(snippet.replaceAll("<mark>", "").replaceAll("</mark>", "")).not.toMatch(/[<>]/)
      expect(snippet.match(/<mark>/g)).toHaveLength(1)
      expect(snippet).not.toMatch(/[\uE000\uE001]/)
    }))

  it.effect("types keeps one kind; limit caps the page", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      expect((yield* search(finder, "fay", { query: "escalation", types: ["topic"] })).data.map((r) => r.type)).toEqual(["topic", "topic"])
      expect((yield* search(finder, "fay", { query: "escalation", types: ["chapter"] })).data.map((r) => r.type)).toEqual([
        "chapter",
        "chapter"
      ])
      expect((yield* search(finder, "fay", { query: "escalation", limit: 1 })).data).toHaveLength(1)
      expect((yield* search(finder, "fay", { query: "escalation", limit: 3 })).data).toHaveLength(3)
    }))

  it.effect("a misspelled word finds names and headlines spelled like it, scored at most 0.5", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      const page = yield* search(finder, "fay", { query: "escalaton" })
      // The headline and the content title lead to the same chapter: it comes once.
      expect(page.data.map(line).sort()).toEqual(["chapter Escalation", "topic Escalation"])
      for (const result of page.data) {
        expect(result.score).toBeGreaterThan(0)
        expect(result.score).toBeLessThanOrEqual(0.5)
      }
    }))

  it.effect("near spellings follow the full-text matches when those do not fill the page, each record once", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      // "stuck" is in Escalation's description; Stucco walls is only spelled like it.
      const page = yield* search(finder, "fay", { query: "stuck" })
      expect(page.data.map(line)).toEqual(["topic Escalation", "topic Stucco walls"])
      expect(page.data[0]!.score).toBeGreaterThan(0.5)
      expect(page.data[1]!.score).toBeLessThanOrEqual(0.5)
      // Support desk is both a full-text match and spelled like "desk": listed once.
      const desk = yield* search(finder, "fay", { query: "desk" })
      expect(desk.data.map(line)).toEqual(["topic Support desk", "topic Escalation"])
    }))

  it.effect("web-search syntax: a quoted phrase keeps its word order, or widens, -word excludes", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      const fullText = (query: string) =>
        search(finder, "fay", { query }).pipe(Effect.map((page) => page.data.filter((r) => r.score > 0.5).map(line).sort()))
      expect(yield* fullText("\"days need\"")).toEqual(["chapter Daily work"])
      expect(yield* fullText("\"need days\"")).toEqual([])
      expect(yield* fullText("plaster or quokka")).toEqual(["topic Markup", "topic Stucco walls"])
      expect(yield* fullText("days -\"need days\"")).toEqual(["chapter Daily work"])
      expect(yield* fullText("days -\"days need\"")).toEqual([])
      // Both topics mention a desk.
      expect(yield* fullText("escalation -desk")).toEqual(["chapter Daily work", "chapter Escalation"])
    }))

  it.effect("nothing found: an empty page", () =>
    Effect.gen(function*() {
      const { finder } = yield* setup
      expect(yield* search(finder, "fay", { query: "zebra" })).toEqual({ data: [], nextCursor: null })
      // Only stop words: no full-text query at all.
      expect(yield* search(finder, "fay", { query: "the" })).toEqual({ data: [], nextCursor: null })
    }))
})
