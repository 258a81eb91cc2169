import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix } from "./support/callers.js"
import { type McpToolClient, mcpClient } from "./support/mcp.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * Content records as MCP resources: resources/read answers as the content
 * text read does, to the same people, and says nothing of records out of
 * reach; answers never link to them either.
 */

// Since the 2026-07-28 revision a missing resource is invalid params with the address as data, on every revision; the older -32002 is gone.
const RESOURCE_NOT_FOUND = -32602
const INVALID_PARAMS = -32602

/** The JSON-RPC error of a resources/read that is refused. */
const readRefusal = (client: McpToolClient, uri: string) =>
  Effect.tryPromise({
    try: () => client.readResource({ uri }),
    catch: (error) => error as { readonly code: number; readonly message: string; readonly data?: unknown }
  }).pipe(Effect.flip)

const linkUris = (result: unknown) =>
  ((result as { content: ReadonlyArray<{ type: string; uri?: string }> }).content).filter((part) => part.type === "resource_link").map((part) => part.uri!)

layer(TestServerLive, { excludeTestServices: true })("content records as MCP resources", (it) => {
  it.scoped("the server declares resources and publishes the two RFC 6570 templates", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: false, subscribe: false })
      const { resourceTemplates } = yield* Effect.promise(() => client.listResourceTemplates())
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
        "tks://content/{contentId}",
        "tks://content/{contentId}/chapters/{sequence}"
      ])
      for (const template of resourceTemplates) expect(template.mimeType).toBe("text/plain")
    }))

  it.scoped("a chapter address reads as that chapter's text alone, whatever fragment it carries", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const guide = result.ids.content.deployGuide!
      const text = yield* raw("GET", `/v1/content/${guide}/text`, { token: tokens.viewer })
      const hotfixes = text.json.chapters[1]
      for (const uri of [`tks://content/${guide}/chapters/2`, `tks://content/${guide}/chapters/2#char=0,8`, `tks://content/${guide}/chapters/2#t=1,2`]) {
        const read = yield* Effect.promise(() => client.readResource({ uri }))
        expect(read.contents, uri).toEqual([{ uri: `tks://content/${guide}/chapters/2`, mimeType: "text/plain", text: hotfixes.text }])
      }
    }))

  it.scoped("a record out of the caller's reach, a missing record and a missing chapter are all the same resource-not-found error", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const viewer = yield* mcpClient(tokens.viewer)
      const external = yield* mcpClient(tokens.external)
      const admin = yield* mcpClient(tokens.admin)
      const vault = `tks://content/${result.ids.content.vaultPolicy!}/chapters/1`
      const guide = `tks://content/${result.ids.content.deployGuide!}`
      // The admin reads both; each refusal below is about the caller, not the record.
      expect((yield* Effect.promise(() => admin.readResource({ uri: vault }))).contents).toHaveLength(1)
      const refusals = [
        { client: viewer, uri: vault, http: [tokens.viewer, result.ids.content.vaultPolicy!] },
        { client: external, uri: guide, http: [tokens.external, result.ids.content.deployGuide!] },
        { client: viewer, uri: "tks://content/cnt_never_issued", http: [tokens.viewer, "cnt_never_issued"] },
        { client: viewer, uri: `${guide}/chapters/9`, http: null },
        { client: viewer, uri: `tks://content/${result.ids.content.draftDoc!}`, http: [tokens.viewer, result.ids.content.draftDoc!] }
      ]
      for (const { client, http, uri } of refusals) {
        const error = yield* readRefusal(client, uri)
        expect(error.code, uri).toBe(RESOURCE_NOT_FOUND)
        expect(error.message, uri).toMatch(/Resource not found/)
        expect(error.data, uri).toEqual({ uri })
        // The content text endpoint refuses the same caller the same record.
        if (http !== null) expect((yield* raw("GET", `/v1/content/${http[1]}/text`, { token: http[0] })).status, uri).toBe(404)
      }
    }))

  it.scoped("answers never link to a record the caller cannot read: evidence from content out of reach is neither shown nor linked", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      // Omar, an external account on Partners, reads the Team Runbooks space (Ops and Partners)
      // but not the Ops runbook its On-call topic was taken from (Ops only).
      const omar = yield* mcpClient(result.tokens.omar!)
      const admin = yield* mcpClient(tokens.admin)
      const runbook = result.ids.content.opsRunbook!
      const pager = { itemId: result.ids.items.pager! }

      const adminItem = yield* Effect.promise(() => admin.callTool({ name: "get_item", arguments: pager }))
      expect(linkUris(adminItem)).toEqual([`tks://content/${runbook}/chapters/1#char=0,52`])

      const omarItem = yield* Effect.promise(() => omar.callTool({ name: "get_item", arguments: pager }))
      expect(omarItem.isError).not.toBe(true)
      expect((omarItem.structuredContent as { evidence: ReadonlyArray<unknown> }).evidence).toEqual([])
      expect(linkUris(omarItem)).toEqual([])
      const omarTopic = yield* Effect.promise(() => omar.callTool({ name: "get_topic", arguments: { topicId: result.ids.topics.oncall! } }))
      expect(omarTopic.isError).not.toBe(true)
      expect(linkUris(omarTopic)).toEqual([])
      const omarSearch = yield* Effect.promise(() => omar.callTool({ name: "search_service", arguments: { query: "pager or rotation" } }))
      expect(JSON.stringify(omarSearch)).not.toContain(runbook)

      const error = yield* readRefusal(omar, linkUris(adminItem)[0]!)
      expect(error.code).toBe(RESOURCE_NOT_FOUND)
      expect(error.message).toMatch(/Resource not found/)
    }))

  it.scoped("an address that is not a content address is invalid params, with a message saying what addresses look like", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      for (
        const uri of [
          "https://example.com/content/x",
          "tks://content/",
          "tks://lessons/abc",
          "tks://content/abc/chapters/0",
          "tks://content/abc/chapters/two",
          "tks://content/abc/chapters/1/more",
          "tks://content/%E0%A4%A"
        ]
      ) {
        const error = yield* readRefusal(client, uri)
        expect(error.code, uri).toBe(INVALID_PARAMS)
        expect(error.message, uri).toContain("tks://content/{contentId}/chapters/{sequence}")
      }
    }))

  it.scoped("resources/list pages through the content the caller can see, newest first, as list_content does", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      for (const kind of ["viewer", "external", "admin"] as const) {
        const client = yield* mcpClient(tokens[kind])
        const listed = yield* raw("GET", "/v1/content?limit=100", { token: tokens[kind] })
        const { nextCursor, resources } = yield* Effect.promise(() => client.listResources())
        expect(nextCursor, kind).toBeUndefined()
        expect(resources.map((resource) => resource.uri), kind).toEqual(
          listed.json.data.map((content: { id: string }) => `tks://content/${content.id}`)
        )
        expect(resources.map((resource) => resource.name), kind).toEqual(listed.json.data.map((content: { title: string }) => content.title))
      }
    }))
})
