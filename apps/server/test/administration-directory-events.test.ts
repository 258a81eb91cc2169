import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeDirectoryEvents } from "@tks/core/testing/organizations"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

/** Acme's nine directory events; ordering and the cursor's binding to the filter are core's (administration-service.test.ts). */
const setup = acmeCallerMatrix

const tamper = (cursor: string) => {
  const [payload, signature] = cursor.split(".")
  const key = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Array<string>
  return `${Buffer.from(JSON.stringify(["2000-01-01T00:00:00.000000Z", key[1]])).toString("base64url")}.${signature}`
}

const organizationUpdaters: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const refused: ReadonlyArray<CallerKind> = ["viewer", "teamAdmin", "external"]

/** Newest first; the two events at the same instant come in a stable order shared by every page. */
const newestFirst = [...acmeDirectoryEvents].reverse()

layer(TestServerLive, { excludeTestServices: true })("GET /v1/directory-sync/events", (it) => {
  it.effect("owner, admin and billing admin read every event newest first, with exactly the five fields", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of organizationUpdaters) {
        const response = yield* raw("GET", "/v1/directory-sync/events", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        const rows = response.json.data as Array<Record<string, unknown>>
        expect(response.json.nextCursor).toBeNull()
        for (const row of rows) expect(Object.keys(row).sort()).toEqual(["createdAt", "operation", "outcome", "reason", "userName"])
        const expected = newestFirst.map((event) => ({
          operation: event.operation,
          outcome: event.outcome,
          reason: "reason" in event ? event.reason : null,
          userName: event.userName,
          createdAt: event.createdAt
        }))
        // The two events of June 6 share an instant: compare them as a set, the rest in order.
        expect(rows.slice(0, 2)).toEqual(expected.slice(0, 2))
        expect(rows.slice(2, 4)).toEqual(expect.arrayContaining(expected.slice(2, 4)))
        expect(rows.slice(4)).toEqual(expected.slice(4))
      }
    }))

  it.effect("the directory's printed message and its own person id are never returned", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const response = yield* raw("GET", "/v1/directory-sync/events", { token: tokens.owner })
      for (const hidden of ["ext-ann", "ext-bob", "Created ann", "Refused bob", "Boom", "Bad token"]) {
        expect(response.text).not.toContain(hidden)
      }
    }))

  it.effect("outcome filters: APPLIED, SKIPPED, REJECTED, FAILED each list only their own, newest first; reason null only when applied", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const client = yield* clientFor(tokens.admin)
      for (const outcome of ["APPLIED", "SKIPPED", "REJECTED", "FAILED"] as const) {
        const page = yield* client.administration.directoryEvents({ urlParams: { outcome } })
        const expected = newestFirst.filter((event) => event.outcome === outcome)
        expect(page.data.map((event) => event.outcome)).toEqual(expected.map(() => outcome))
        expect([...page.data.map((event) => event.createdAt)]).toEqual(expected.map((event) => event.createdAt))
        for (const event of page.data) expect(event.reason === null, outcome).toBe(outcome === "APPLIED")
      }
    }))

  it.effect("an unknown outcome is 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const outcome of ["applied", "BOGUS", ""]) {
        expectError(yield* raw("GET", `/v1/directory-sync/events?outcome=${outcome}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", outcome)
      }
    }))

  it.effect("walking pages of 2 gives every event once in the first page's order", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const client = yield* clientFor(tokens.owner)
      const full = (yield* client.administration.directoryEvents({ urlParams: {} })).data
      const seen: Array<unknown> = []
      let cursor: string | undefined = undefined
      let pages = 0
      do {
        const page: { data: ReadonlyArray<unknown>; nextCursor: string | null } = yield* client.administration.directoryEvents({
          urlParams: { limit: 2, ...(cursor === undefined ? {} : { cursor }) }
        })
        seen.push(...page.data)
        cursor = page.nextCursor ?? undefined
        pages++
      } while (cursor !== undefined && pages < 20)
      expect(seen).toEqual(full)
      expect(pages).toBe(Math.ceil(full.length / 2))
    }))

  it.effect("a tampered, made-up, undecodable or foreign cursor is 400 INVALID_CURSOR, never the first page", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const first = yield* (yield* clientFor(tokens.admin)).administration.directoryEvents({ urlParams: { limit: 2 } })
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        ["tampered", tokens.admin, tamper(first.nextCursor!)],
        ["made up", tokens.admin, "abc"],
        ["not base64 json", tokens.admin, "%%%.%%%"],
        ["another organization's admin", tokens.otherOrgAdmin, first.nextCursor!]
      ]
      for (const [label, token, cursor] of cases) {
        expectError(yield* raw("GET", `/v1/directory-sync/events?cursor=${encodeURIComponent(cursor)}`, { token }), 400, "INVALID_CURSOR", label)
      }
    }))

  it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", `/v1/directory-sync/events?limit=${limit}`, { token: tokens.owner }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("viewer, team admin and external get 403 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of refused) expectError(yield* raw("GET", "/v1/directory-sync/events", { token: tokens[kind] }), 403, "FORBIDDEN", kind)
    }))

  it.effect("another organization's admin sees only their own organization's events", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      expect(yield* (yield* clientFor(tokens.otherOrgAdmin)).administration.directoryEvents({ urlParams: {} })).toEqual({
        data: [],
        nextCursor: null
      })
      const third = yield* importFixture({
        organization: { name: "Third Directory Org", plan: "enterprise" },
        people: [{ key: "thirdAdmin", name: "Thea Third", email: "thea@third.test", role: "admin", tokenScopes: [] }],
        directory: {
          connection: { status: "ACTIVE" },
          events: [{ operation: "CREATE", outcome: "APPLIED", userName: "only@third.test", createdAt: "2026-06-20T09:00:00.000Z" }]
        }
      })
      const page = yield* (yield* clientFor(third.tokens.thirdAdmin)).administration.directoryEvents({ urlParams: {} })
      expect(page.data.map((event) => event.userName)).toEqual(["only@third.test"])
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", "/v1/directory-sync/events?outcome=APPLIED", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))
})
