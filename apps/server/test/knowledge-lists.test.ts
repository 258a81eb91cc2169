import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { categories } from "@tks/domain/knowledge"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/categories, /v1/spaces and /v1/topics on the wire, for the whole
 * caller matrix. Which records each reader sees is core's
 * (knowledge-graph-lists.test.ts); here: status codes, bodies, parameters
 * and pagination over real HTTP.
 */
const setup = acmeCallerMatrix

const admins: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const spacesFor: Record<CallerKind, ReadonlyArray<string>> = {
  owner: ["Buildings", "Platform", "Secrets", "Team Runbooks"],
  admin: ["Buildings", "Platform", "Secrets", "Team Runbooks"],
  billingAdmin: ["Buildings", "Platform", "Secrets", "Team Runbooks"],
  // Victor and Tara are on Ops, which Team Runbooks is shared with.
  viewer: ["Buildings", "Platform", "Team Runbooks"],
  teamAdmin: ["Buildings", "Platform", "Team Runbooks"],
  // Ella is an external account on no team.
  external: [],
  otherOrgAdmin: []
}
const topicsFor: Record<CallerKind, ReadonlyArray<string>> = {
  owner: ["Deployments", "Key rotation", "On-call", "Safety"],
  admin: ["Deployments", "Key rotation", "On-call", "Safety"],
  billingAdmin: ["Deployments", "Key rotation", "On-call", "Safety"],
  viewer: ["Deployments", "On-call", "Safety"],
  teamAdmin: ["Deployments", "On-call", "Safety"],
  external: [],
  otherOrgAdmin: []
}
const names = (response: { json: { data: ReadonlyArray<{ name: string }> } }) => response.json.data.map((r) => r.name)

layer(TestServerLive, { excludeTestServices: true })("GET /v1/categories, /v1/spaces, /v1/topics", (it) => {
  it.effect("categories: every caller gets their organization's 14 in display order, one page, counts of what they can read", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of Object.keys(spacesFor) as Array<CallerKind>) {
        const response = yield* raw("GET", "/v1/categories", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json.nextCursor, kind).toBeNull()
        expect(response.json.data.map((c: { slug: string }) => c.slug), kind).toEqual(categories.map((c) => c.slug))
        const engineering = response.json.data.find((c: { slug: string }) => c.slug === "engineering")
        const readable = spacesFor[kind].filter((name) => name !== "Buildings").length
        expect(engineering, kind).toMatchObject({ spaceCount: readable, topicCount: readable })
        const acmeCategory = engineering.id === result.ids.categories.engineering
        expect(acmeCategory, kind).toBe(kind !== "otherOrgAdmin")
      }
      const viewer = yield* (yield* clientFor(tokens.viewer)).knowledge.listCategories()
      expect(viewer.data[5]).toEqual({
        id: result.ids.categories.engineering,
        slug: "engineering",
        name: "Engineering",
        spaceCount: 2,
        topicCount: 2,
        url: `http://localhost:3000/v1/categories/${result.ids.categories.engineering}`
      })
    }))

  it.effect("spaces and topics: each caller lists the live ones they can read, by name", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of Object.keys(spacesFor) as Array<CallerKind>) {
        const spaces = yield* raw("GET", "/v1/spaces", { token: tokens[kind] })
        expect(spaces.status, kind).toBe(200)
        expect(names(spaces), kind).toEqual(spacesFor[kind])
        const topics = yield* raw("GET", "/v1/topics", { token: tokens[kind] })
        expect(topics.status, kind).toBe(200)
        expect(names(topics), kind).toEqual(topicsFor[kind])
      }
    }))

  it.effect("the wire rows of a space and a topic", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const client = yield* clientFor(tokens.viewer)
      const engineering = { id: result.ids.categories.engineering, slug: "engineering", name: "Engineering" }
      const spaces = yield* client.knowledge.listSpaces({ urlParams: { categorySlug: "engineering", limit: 1 } })
      expect(spaces.data).toEqual([{
        id: result.ids.spaces.platform,
        name: "Platform",
        description: null,
        category: engineering,
        visibility: "everyone",
        topicCount: 1,
        url: `http://localhost:3000/v1/spaces/${result.ids.spaces.platform}`
      }])
      const topics = yield* client.knowledge.listTopics({ urlParams: { query: "call" } })
      expect(topics).toEqual({
        data: [{
          id: result.ids.topics.oncall,
          name: "On-call",
          slug: "on-call",
          description: null,
          space: { id: result.ids.spaces.runbooks, name: "Team Runbooks" },
          category: engineering,
          itemCount: 1,
          url: `http://localhost:3000/v1/topics/${result.ids.topics.oncall}`
        }],
        nextCursor: null
      })
    }))

  it.effect("filters reach the listings: categorySlug, spaceId, query", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const get = (path: string) => raw("GET", path, { token: tokens.admin }).pipe(Effect.map(names))
      expect(yield* get("/v1/spaces?categorySlug=facilities")).toEqual(["Buildings"])
      expect(yield* get("/v1/topics?categorySlug=engineering")).toEqual(["Deployments", "Key rotation", "On-call"])
      expect(yield* get(`/v1/topics?spaceId=${result.ids.spaces.secrets}`)).toEqual(["Key rotation"])
      expect(yield* get("/v1/topics?query=SAF")).toEqual(["Safety"])
      expect(yield* get(`/v1/topics?spaceId=${result.ids.spaces.secrets}&query=safe`)).toEqual([])
    }))

  it.effect("an unknown categorySlug is 400 naming the allowed slugs", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const path of ["/v1/spaces?categorySlug=unknown", "/v1/topics?categorySlug=Engineering", "/v1/spaces?categorySlug="]) {
        const response = yield* raw("GET", path, { token: tokens.admin })
        expectError(response, 400, "VALIDATION_ERROR", path)
        for (const { slug } of categories) expect(response.json.message, path).toContain(`"${slug}"`)
      }
    }))

  it.effect("limit 0, 101 and abc, and a tampered or foreign cursor, are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const path of ["/v1/spaces", "/v1/topics"]) {
        for (const limit of ["0", "101", "abc"]) {
          expectError(yield* raw("GET", `${path}?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", `${path} ${limit}`)
        }
        const first = yield* raw("GET", `${path}?limit=1`, { token: tokens.admin })
        const cursor = first.json.nextCursor as string
        for (const [label, bad] of [["tampered", tamperCursor(cursor)], ["made up", "abc.def"]] as const) {
          const response = yield* raw("GET", `${path}?limit=1&cursor=${encodeURIComponent(bad)}`, { token: tokens.admin })
          expectError(response, 400, "INVALID_CURSOR", `${path} ${label}`)
        }
        // The cursor is bound to its caller: what another person can read differs.
        const foreign = yield* raw("GET", `${path}?limit=1&cursor=${encodeURIComponent(cursor)}`, { token: tokens.owner })
        expectError(foreign, 400, "INVALID_CURSOR", `${path} other caller`)
      }
    }))

  it.effect("pages walk every space and topic once, in order", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of [1, 3]) {
        const spaces = yield* walkPages("/v1/spaces", tokens.admin, limit)
        expect(spaces.rows.map((s) => s.name)).toEqual(spacesFor.admin)
        expect(spaces.pages).toBe(Math.ceil(spacesFor.admin.length / limit))
        const topics = yield* walkPages("/v1/topics?categorySlug=engineering", tokens.viewer, limit)
        expect(topics.rows.map((t) => t.name)).toEqual(["Deployments", "On-call"])
      }
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 on every list", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const path of ["/v1/categories", "/v1/spaces", "/v1/topics"]) {
        for (const kind of badTokens) expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${path} ${kind}`)
      }
    }))

  it.effect("organization admins are not limited by team visibility", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of admins) expect(names(yield* raw("GET", "/v1/spaces", { token: tokens[kind] })), kind).toContain("Secrets")
    }))
})
