import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/search on the wire over
 * acme. Ranking, snippets and near spellings are core's
 * (search-ranking.test.ts, search-visibility.test.ts); here: parameters,
 * error rows, the caller matrix and the result shape.
 */
const setup = acmeCallerMatrix

const searchPath = (query: string, extra = "") => `/v1/search?query=${encodeURIComponent(query)}${extra}`
const found = (response: { json: { data: ReadonlyArray<{ type: string; title: string }> } }) =>
  response.json.data.map((r) => `${r.type} ${r.title}`).sort()

/** Eleven records acme's admins can find: four topics and seven chapters. */
const many = "fire or rotation or canary or deployment or safety or pager or hotfix or vault or aid or goals"

layer(TestServerLive, { excludeTestServices: true })("GET /v1/search", (it) => {
  it.effect("each caller finds what they can read: rotation", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const expected: Record<CallerKind, ReadonlyArray<string>> = {
        owner: ["chapter Key rotation", "chapter Pager rotation", "topic Key rotation", "topic On-call"],
        admin: ["chapter Key rotation", "chapter Pager rotation", "topic Key rotation", "topic On-call"],
        billingAdmin: ["chapter Key rotation", "chapter Pager rotation", "topic Key rotation", "topic On-call"],
        viewer: ["chapter Pager rotation", "topic On-call"],
        teamAdmin: ["chapter Pager rotation", "topic On-call"],
        external: [],
        otherOrgAdmin: []
      }
      for (const kind of Object.keys(expected) as Array<CallerKind>) {
        const response = yield* raw("GET", searchPath("rotation"), { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(found(response), kind).toEqual(expected[kind])
        expect(response.json.nextCursor, kind).toBeNull()
      }
    }))

  it.effect("a result on the wire: type, id, title, marked snippet, score, url; chapters with their content and sequence", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* raw("GET", searchPath("hotfix", "&types=chapter"), { token: tokens.viewer })
      const guide = result.ids.content.deployGuide!
      expect(response.json).toEqual({
        data: [{
          type: "chapter",
          id: expect.stringMatching(/^chp_/),
          title: "Hotfixes",
          snippet: "A <mark>hotfix</mark> must be reviewed by a second engineer before it ships.",
          score: expect.any(Number),
          url: `http://localhost:3000/v1/content/${guide}#chapter-2`,
          contentId: guide,
          contentTitle: "Deployment Guide",
          sequence: 2
        }],
        nextCursor: null
      })
      expect(response.json.data[0].score).toBeGreaterThan(0.5)
      const topic = yield* raw("GET", searchPath("hotfix", "&types=topic"), { token: tokens.viewer })
      expect(topic.json.data).toEqual([{
        type: "topic",
        id: result.ids.topics.deploy,
        title: "Deployments",
        snippet: expect.stringContaining("<mark>hotfix</mark> policy"),
        score: expect.any(Number),
        url: `http://localhost:3000/v1/topics/${result.ids.topics.deploy}`
      }])
    }))

  it.effect("types: comma-separated or repeated; default both", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const both = found(yield* raw("GET", searchPath("rotation"), { token: tokens.admin }))
      expect(found(yield* raw("GET", searchPath("rotation", "&types=topic,chapter"), { token: tokens.admin }))).toEqual(both)
      expect(found(yield* raw("GET", searchPath("rotation", "&types=chapter&types=topic"), { token: tokens.admin }))).toEqual(both)
      expect(found(yield* raw("GET", searchPath("rotation", "&types=topic"), { token: tokens.admin }))).toEqual(["topic Key rotation", "topic On-call"])
      const client = yield* clientFor(tokens.admin)
      const chapters = yield* client.search.search({ urlParams: { query: "rotation", types: ["chapter"] } })
      expect(chapters.data.map((r) => r.type)).toEqual(["chapter", "chapter"])
    }))

  it.effect("limit: 10 by default, up to 50", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      expect((yield* raw("GET", searchPath(many), { token: tokens.admin })).json.data).toHaveLength(10)
      expect((yield* raw("GET", searchPath(many, "&limit=50"), { token: tokens.admin })).json.data).toHaveLength(11)
      expect((yield* raw("GET", searchPath(many, "&limit=3"), { token: tokens.admin })).json.data).toHaveLength(3)
    }))

  it.effect("400 with a JSON body: blank or missing query, a query over 500 characters, limit 0, 51 or 5x, unknown types", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const paths = [
        "/v1/search",
        "/v1/search?query=",
        "/v1/search?query=%20%20",
        searchPath("x".repeat(501)),
        searchPath("fire", "&limit=0"),
        searchPath("fire", "&limit=51"),
        searchPath("fire", "&limit=5x"),
        searchPath("fire", "&types=lesson"),
        searchPath("fire", "&types=topic,"),
        searchPath("fire", "&types=")
      ]
      for (const path of paths) expectError(yield* raw("GET", path, { token: tokens.viewer }), 400, "VALIDATION_ERROR", path.slice(0, 60))
      const limit = yield* raw("GET", searchPath("fire", "&limit=51"), { token: tokens.viewer })
      expect(limit.json.message).toContain("limit must be an integer from 1 to 50")
    }))

  it.effect("a typo still finds; nothing found is an empty page", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      expect(found(yield* raw("GET", searchPath("deploymnt"), { token: tokens.viewer }))).toEqual(["chapter Rolling out", "topic Deployments"])
      expect((yield* raw("GET", searchPath("zebra"), { token: tokens.viewer })).json).toEqual({ data: [], nextCursor: null })
    }))

  it.effect("markup in the query is only searched for, never echoed as markup", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const response = yield* raw("GET", searchPath("<script>alert(1)</script> hotfix"), { token: tokens.viewer })
      expect(response.status).toBe(200)
      expect(response.text).not.toContain("<script>")
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* raw("GET", searchPath("fire"), { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
    }))
})
