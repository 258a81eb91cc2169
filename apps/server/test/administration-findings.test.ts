import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeVerifiedAt as verifiedAt } from "@tks/core/testing/organizations"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

const dayMs = 86_400_000

/** Acme's six findings and its org chart, verified ten days ago; ordering rules are core's (administration-service.test.ts). */
const setup = acmeCallerMatrix

const organizationUpdaters: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const refusedFindings: ReadonlyArray<CallerKind> = ["viewer", "teamAdmin", "external"]

layer(TestServerLive, { excludeTestServices: true })("administration reads: findings and org-chart verification", (it) => {
  describe("GET /v1/findings", () => {
    it.effect("owner, admin and billing admin read the findings newest first", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of organizationUpdaters) {
          const page = yield* (yield* clientFor(tokens[kind])).administration.findings({ urlParams: {} })
          expect(page.nextCursor).toBeNull()
          expect(page.data.slice(0, 2).map((finding) => finding.content)).toEqual([
            "System note without a kind",
            "Competitor pricing page changed"
          ])
          // Equal instants (their order is core's rule).
          expect(page.data.slice(2, 4).map((finding) => finding.content).sort()).toEqual(["Tie one", "Tie two"])
          expect(page.data.slice(4).map((finding) => finding.content)).toEqual([
            "Research: onboarding takes 3 weeks",
            "Pallet scanner outage costs two hours a week"
          ])
        }
      }))

    it.effect("each finding has exactly id, content, source, createdAt and updatedAt; the author is never returned", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const at = (day: number) => `2026-05-${String(day).padStart(2, "0")}T08:00:00.000Z`
        const response = yield* raw("GET", "/v1/findings", { token: tokens.owner })
        expect(response.status).toBe(200)
        const rows = response.json.data as Array<Record<string, unknown>>
        expect(rows).toHaveLength(6)
        for (const row of rows) {
          expect(Object.keys(row).sort()).toEqual(["content", "createdAt", "id", "source", "updatedAt"])
          expect(row.id).toMatch(/^fnd_/)
        }
        expect(rows[0]).toMatchObject({
          content: "System note without a kind",
          source: { type: "system", systemSourceType: null },
          createdAt: at(5),
          updatedAt: at(5)
        })
        expect(rows[1]).toMatchObject({ source: { type: "system", systemSourceType: "web_analysis" } })
        expect(rows[4]).toMatchObject({ source: { type: "system", systemSourceType: "research_conversation" } })
        expect(rows[5]).toMatchObject({ source: { type: "user", systemSourceType: null } })
        expect(response.text).not.toContain(result.ids.people.olivia)
        expect(response.text).not.toContain(result.ids.people.victor)
      }))

    it.effect("viewer, team admin and external get 403 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of refusedFindings) {
          const response = yield* raw("GET", "/v1/findings", { token: tokens[kind] })
          expect(response.status, kind).toBe(403)
          expect(response.json, kind).toMatchObject({ code: "FORBIDDEN", message: expect.any(String) })
        }
      }))

    it.effect("walking pages of 4 gives every finding once, in the same order", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const client = yield* clientFor(tokens.admin)
        const full = (yield* client.administration.findings({ urlParams: {} })).data.map((finding) => finding.id)
        const limit = 4
        const ids: Array<string> = []
        let cursor: string | undefined = undefined
        let pages = 0
        do {
          const page: { data: ReadonlyArray<{ id: string }>; nextCursor: string | null } =
            yield* client.administration.findings({ urlParams: { limit, ...(cursor === undefined ? {} : { cursor }) } })
          ids.push(...page.data.map((finding) => finding.id))
          cursor = page.nextCursor ?? undefined
          pages++
        } while (cursor !== undefined && pages < 20)
        expect(ids).toEqual(full)
        expect(pages).toBe(Math.ceil(full.length / limit))
      }))

    it.effect("a tampered cursor and a made-up one are 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const first = yield* (yield* clientFor(tokens.admin)).administration.findings({ urlParams: { limit: 2 } })
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["tampered", tokens.admin, tamperCursor(first.nextCursor!)],
          ["made up", tokens.admin, "eyJ4Ijp0cnVlfQ.c2lnbmF0dXJl"]
        ]
        for (const [label, token, cursor] of cases) {
          const response = yield* raw("GET", `/v1/findings?cursor=${encodeURIComponent(cursor)}`, { token })
          expect(response.status, label).toBe(400)
          expect(response.json, label).toMatchObject({ code: "INVALID_CURSOR", message: expect.any(String) })
        }
      }))

    it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const limit of ["0", "101", "abc"]) {
          const response = yield* raw("GET", `/v1/findings?limit=${limit}`, { token: tokens.owner })
          expect(response.status, limit).toBe(400)
          expect(response.json, limit).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) })
        }
      }))

    it.effect("another organization's admin sees only their own organization's findings", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const empty = yield* (yield* clientFor(tokens.otherOrgAdmin)).administration.findings({ urlParams: {} })
        expect(empty).toEqual({ data: [], nextCursor: null })
        const third = yield* importFixture({
          organization: { name: "Third Findings Org" },
          people: [{ key: "thirdAdmin", name: "Thea Third", email: "thea@third.test", role: "billing-admin", tokenScopes: [] }],
          findings: [{ content: "Only ours", source: { type: "user" }, createdAt: "2026-05-09T08:00:00.000Z" }]
        })
        const page = yield* (yield* clientFor(third.tokens.thirdAdmin)).administration.findings({ urlParams: {} })
        expect(page.data.map((finding) => finding.content)).toEqual(["Only ours"])
      }))

    it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of badTokens) {
          const response = yield* raw("GET", "/v1/findings", { token: tokens[kind] })
          expect(response.status, kind).toBe(401)
          expect(response.json, kind).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
        }
      }))
  })

  describe("GET /v1/org-chart/verification", () => {
    it.effect("every role but external reads it: verified 10 days ago on a 90-day interval is current", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"] as const) {
          const view = yield* (yield* clientFor(tokens[kind])).administration.orgChartVerification()
          expect(view, kind).toEqual({
            status: "current",
            lastVerifiedAt: verifiedAt,
            intervalDays: 90,
            nextDueAt: new Date(Date.parse(verifiedAt) + 90 * dayMs).toISOString(),
            isDue: false
          })
        }
      }))

    it.effect("the body has exactly the five fields; the confirming person is not returned", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const response = yield* raw("GET", "/v1/org-chart/verification", { token: tokens.owner })
        expect(response.status).toBe(200)
        expect(Object.keys(response.json).sort()).toEqual(["intervalDays", "isDue", "lastVerifiedAt", "nextDueAt", "status"])
        expect(response.text).not.toContain(result.ids.people.olivia)
        expect(response.text).not.toContain("Olivia")
      }))

    it.effect("external gets 403 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const response = yield* raw("GET", "/v1/org-chart/verification", { token: tokens.external })
        expect(response.status).toBe(403)
        expect(response.json).toMatchObject({ code: "FORBIDDEN", message: expect.any(String) })
      }))

    it.effect("another organization's admin, with no record, sees their own: never_verified on the 90-day default", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const view = yield* (yield* clientFor(tokens.otherOrgAdmin)).administration.orgChartVerification()
        expect(view).toEqual({ status: "never_verified", lastVerifiedAt: null, intervalDays: 90, nextDueAt: null, isDue: true })
      }))

    it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of badTokens) {
          const response = yield* raw("GET", "/v1/org-chart/verification", { token: tokens[kind] })
          expect(response.status, kind).toBe(401)
          expect(response.json, kind).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
        }
      }))
  })
})
