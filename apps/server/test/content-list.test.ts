import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { ImportResult } from "@tks/core/org-import/schema"
import { shelf, shelfNote } from "@tks/core/testing/content-library"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

/** Acme's callers, and Shelf (an external account on a team, ties, wildcards); matching rules in depth are core's (content-list.test.ts). */
let shelfImport: ImportResult | undefined
const setup = Effect.gen(function*() {
  const matrix = yield* acmeCallerMatrix
  shelfImport ??= yield* importFixture(shelf)
  const shelfToken = (key: string) => shelfImport!.tokens[key]!
  return { ...matrix, shelf: shelfImport, shelfToken }
})

const acmeAll = ["Safety Guide", "Fire Drill Walkthrough", "Vault Key Policy", "Ops Pager Runbook", "Deployment Guide", "Quarterly Planning Notes"]
const acmeOps = ["Safety Guide", "Fire Drill Walkthrough", "Ops Pager Runbook", "Deployment Guide", "Quarterly Planning Notes"]
const expectedFor: Record<CallerKind, ReadonlyArray<string>> = {
  owner: acmeAll,
  admin: acmeAll,
  billingAdmin: acmeAll,
  // Victor and Tara are on Ops.
  viewer: acmeOps,
  teamAdmin: acmeOps,
  // Ella is on no team; acme shares nothing with a team she is on.
  external: [],
  // Other has no content.
  otherOrgAdmin: []
}
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const titlesOf = (response: { json: any }): Array<string> => response.json.data.map((row: { title: string }) => row.title)

layer(TestServerLive, { excludeTestServices: true })("GET /v1/content", (it) => {
  it.effect("each caller lists the published content they can read, newest first; another organization's admin sees their own (none)", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const [kind, titles] of Object.entries(expectedFor)) {
        const page = yield* (yield* clientFor(tokens[kind as CallerKind])).content.list({ urlParams: {} })
        expect(page.data.map((row) => row.title), kind).toEqual(titles)
        expect(page.nextCursor, kind).toBeNull()
        expect(Object.keys(page), kind).toEqual(["data", "nextCursor"])
      }
    }))

  it.effect("an external account on a team lists that team's content (Xena on Red), one on no team nothing", () =>
    Effect.gen(function*() {
      const { shelfToken } = yield* setup
      expect(titlesOf(yield* raw("GET", "/v1/content", { token: shelfToken("xena") }))).toEqual(["Red Team Safety Plan"])
      expect(titlesOf(yield* raw("GET", "/v1/content", { token: shelfToken("xavi") }))).toEqual([])
    }))

  it.effect("an item's wire fields are exactly the contract's: no notes, no status, no visibility", () =>
    Effect.gen(function*() {
      const { result, tokens, shelf, shelfToken } = yield* setup
      const response = yield* raw("GET", "/v1/content?query=fire%20drill", { token: tokens.viewer })
      expect(response.status).toBe(200)
      const id = result.ids.content.fireVideo
      expect(response.json).toEqual({
        data: [{
          id,
          title: "Fire Drill Walkthrough",
          type: "video",
          summary: null,
          durationSeconds: 212,
          url: `http://localhost:3000/v1/content/${id}`,
          createdAt: "2026-04-04T09:00:00.000Z",
          updatedAt: "2026-04-04T09:00:00.000Z"
        }],
        nextCursor: null
      })
      const deploy = yield* raw("GET", "/v1/content?query=deployment", { token: tokens.owner })
      expect(deploy.json.data).toEqual([expect.objectContaining({ title: "Deployment Guide", createdAt: expect.stringMatching(isoMs) })])
      expect(deploy.text).not.toContain("Internal: rewrite the hotfix chapter")
      const everything = yield* raw("GET", "/v1/content", { token: shelfToken("olga") })
      expect(everything.text).not.toContain(shelfNote)
      expect(everything.json.data.find((row: { id: string }) => row.id === shelf.ids.content.forklift)).toMatchObject({ durationSeconds: null })
    }))

  it.effect("query (URL-encoded, any word order and case) and type reach the listing", () =>
    Effect.gen(function*() {
      const { tokens, shelfToken } = yield* setup
      const olga = shelfToken("olga")
      const titles = (query: string) => raw("GET", `/v1/content?${query}`, { token: olga }).pipe(Effect.map(titlesOf))
      expect(yield* titles("query=SAFETY%20forklift")).toEqual(["safety FORKLIFT refresher", "Forklift Safety Basics"])
      expect(yield* titles(`query=${encodeURIComponent("100%")}`)).toEqual(["100% Sure_Thing Checklist"])
      expect(yield* titles("query=safety&type=video")).toEqual(["safety FORKLIFT refresher"])
      expect(yield* titles("type=guide")).toEqual(["Basics of Safety"])
      expect(titlesOf(yield* raw("GET", "/v1/content?type=document", { token: tokens.viewer }))).toEqual([
        "Ops Pager Runbook",
        "Deployment Guide",
        "Quarterly Planning Notes"
      ])
    }))

  it.effect("a type other than document, video or guide is 400, naming the allowed values", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const type of ["audio", "Video", ""]) {
        const response = yield* raw("GET", `/v1/content?type=${type}`, { token: tokens.viewer })
        expectError(response, 400, "VALIDATION_ERROR", type)
        for (const allowed of ["document", "video", "guide"]) expect(response.json.message, type).toContain(allowed)
        expect(response.json.issues, type).toEqual([expect.objectContaining({ path: "type" })])
      }
    }))

  it.effect("a NUL byte in the query is 400 with a JSON body, never a database error", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const response = yield* raw("GET", "/v1/content?query=fork%00lift", { token: tokens.viewer })
      expect(response.status).toBe(400)
      expect(response.json).toMatchObject({ code: expect.any(String), message: expect.any(String) })
    }))

  it.effect("limit 0, 101, abc and 1.5 are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of ["0", "101", "abc", "1.5"]) {
        expectError(yield* raw("GET", `/v1/content?limit=${limit}`, { token: tokens.viewer }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("a tampered, made-up or another listing's cursor is 400 INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const first = yield* (yield* clientFor(tokens.admin)).content.list({ urlParams: { limit: 1 } })
      const cursor = first.nextCursor!
      for (
        const [label, path] of [
          ["tampered", `/v1/content?cursor=${encodeURIComponent(tamperCursor(cursor))}`],
          ["made up", "/v1/content?cursor=not-a-cursor"],
          ["another filter", `/v1/content?type=video&cursor=${encodeURIComponent(cursor)}`]
        ] as const
      ) {
        expectError(yield* raw("GET", path, { token: tokens.admin }), 400, "INVALID_CURSOR", label)
      }
      expectError(yield* raw("GET", `/v1/content?cursor=${encodeURIComponent(cursor)}`, { token: tokens.viewer }), 400, "INVALID_CURSOR", "another caller")
    }))

  it.effect("pages of 1 and 4 walk the whole listing once, newest first, ties in createdAt included", () =>
    Effect.gen(function*() {
      const { tokens, shelfToken } = yield* setup
      const acmeWalk = yield* walkPages("/v1/content", tokens.owner, 1)
      expect(acmeWalk.rows.map((row) => row.title)).toEqual(acmeAll)
      expect(acmeWalk.pages).toBe(acmeAll.length)
      const all = (yield* raw("GET", "/v1/content", { token: shelfToken("olga") })).json.data
      const shelfWalk = yield* walkPages("/v1/content", shelfToken("olga"), 4)
      expect(shelfWalk.rows).toEqual(all)
      expect(shelfWalk.pages).toBe(Math.ceil(all.length / 4))
      const filtered = yield* walkPages("/v1/content?query=safety", shelfToken("vera"), 1)
      expect(filtered.rows.map((row) => row.title)).toEqual(["Red Team Safety Plan", "Basics of Safety", "safety FORKLIFT refresher", "Forklift Safety Basics"])
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* raw("GET", "/v1/content", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
    }))
})
