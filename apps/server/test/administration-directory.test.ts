import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { badTokens, type CallerKind, callerMatrixOnce } from "./support/callers.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

const at = (day: number, hour = 9) => `2026-06-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00.000Z`

const events = [
  { operation: "CREATE", outcome: "APPLIED", userName: "ann@admin.test", externalId: "ext-ann", message: "Created ann", createdAt: at(1) },
  { operation: "CREATE", outcome: "REJECTED", reason: "DOMAIN_MISMATCH", userName: "bob@elsewhere.test", externalId: "ext-bob", message: "Refused bob", createdAt: at(2) },
  { operation: "UPDATE", outcome: "SKIPPED", reason: "NO_CHANGE", userName: "ann@admin.test", externalId: "ext-ann", message: "Nothing to do", createdAt: at(3) },
  { operation: "DEACTIVATE", outcome: "APPLIED", userName: "cid@admin.test", externalId: "ext-cid", message: "Deactivated cid", createdAt: at(4) },
  { operation: "DELETE", outcome: "FAILED", reason: "INTERNAL_ERROR", userName: "dee@admin.test", externalId: "ext-dee", message: "Boom", createdAt: at(5) },
  { operation: "REACTIVATE", outcome: "APPLIED", userName: "cid@admin.test", externalId: "ext-cid", message: "Back again", createdAt: at(6) },
  { operation: "LIST", outcome: "APPLIED", userName: null, createdAt: at(6) },
  { operation: "AUTH", outcome: "REJECTED", reason: "TOKEN_EXPIRED", userName: null, message: "Bad token", createdAt: at(7) },
  { operation: "CREATE", outcome: "APPLIED", userName: "eve@admin.test", externalId: "ext-eve", message: "Created eve", createdAt: at(8) }
] as const

const fixture: OrgFixtureInput = {
  organization: { name: "Directory Org", plan: "enterprise" },
  directory: {
    connection: {
      status: "ACTIVE",
      tokenCreatedAt: "2026-01-05T10:00:00.000Z",
      tokenLastUsedAt: "2026-06-08T09:00:00.000Z",
      tokenExpiresAt: "2999-01-01T00:00:00.000Z",
      lastSyncAt: "2026-06-08T09:00:00.000Z",
      sendWelcomeImmediately: true,
      countProvisioned: 12,
      countUpdated: 5,
      countDeactivated: 2,
      countSkipped: 1,
      createdAt: "2026-01-05T09:59:00.000Z"
    },
    events: events.map((event) => ({ ...event }))
  }
}

const setup = callerMatrixOnce(fixture)

/** An organization of its own with one admin token and this directory connection. */
const orgWithConnection = (name: string, plan: "starter" | "pro" | "enterprise", connection: NonNullable<OrgFixtureInput["directory"]>["connection"]) =>
  importFixture({
    organization: { name, plan },
    people: [{ key: "boss", name: `${name} Boss`, email: `boss@${plan}.test`, role: "owner", tokenScopes: [] }],
    directory: { connection }
  }).pipe(Effect.map((result) => result.tokens.boss!))

const tamper = (cursor: string) => {
  const [payload, signature] = cursor.split(".")
  const key = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Array<string>
  return `${Buffer.from(JSON.stringify(["2000-01-01T00:00:00.000000Z", key[1]])).toString("base64url")}.${signature}`
}

const organizationUpdaters: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const refused: ReadonlyArray<CallerKind> = ["viewer", "teamAdmin", "external"]

/** Newest first; the two events at the same instant come in a stable order shared by every page. */
const newestFirst = [...events].reverse()

layer(TestServerLive, { excludeTestServices: true })("administration reads: directory sync", (it) => {
  describe("GET /v1/directory-sync", () => {
    it.effect("owner, admin and billing admin read the connection with every SPEC 2.12 field", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of organizationUpdaters) {
          const response = yield* raw("GET", "/v1/directory-sync", { token: tokens[kind] })
          expect(response.status, kind).toBe(200)
          expect(response.json, kind).toEqual({
            eligible: true,
            connection: {
              status: "ACTIVE",
              tokenCreatedAt: "2026-01-05T10:00:00.000Z",
              tokenLastUsedAt: "2026-06-08T09:00:00.000Z",
              tokenExpiresAt: "2999-01-01T00:00:00.000Z",
              tokenActive: true,
              lastSyncAt: "2026-06-08T09:00:00.000Z",
              pausedAt: null,
              pausedReason: null,
              sendWelcomeImmediately: true,
              countProvisioned: 12,
              countUpdated: 5,
              countDeactivated: 2,
              countSkipped: 1,
              createdAt: "2026-01-05T09:59:00.000Z"
            }
          })
        }
      }))

    it.effect("viewer, team admin and external get 403 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of refused) {
          const response = yield* raw("GET", "/v1/directory-sync", { token: tokens[kind] })
          expect(response.status, kind).toBe(403)
          expect(response.json, kind).toMatchObject({ code: "FORBIDDEN", message: expect.any(String) })
        }
      }))

    it.effect("an expired token: tokenActive false, status still ACTIVE (not syncing); eligible false on pro yet the connection is shown", () =>
      Effect.gen(function*() {
        const token = yield* orgWithConnection("Expired Org", "pro", {
          status: "ACTIVE",
          tokenCreatedAt: "2019-01-01T00:00:00.000Z",
          tokenExpiresAt: "2020-01-01T00:00:00.000Z"
        })
        const view = yield* (yield* clientFor(token)).administration.directorySync()
        expect(view.eligible).toBe(false)
        expect(view.connection).toMatchObject({ status: "ACTIVE", tokenActive: false, tokenExpiresAt: "2020-01-01T00:00:00.000Z" })
        // Reading it again changes nothing: expiry is not written anywhere.
        expect(yield* (yield* clientFor(token)).administration.directorySync()).toEqual(view)
      }))

    it.effect("a revoked token: tokenActive false and the status unchanged", () =>
      Effect.gen(function*() {
        const token = yield* orgWithConnection("Revoked Org", "enterprise", {
          status: "ACTIVE",
          tokenCreatedAt: "2026-01-01T00:00:00.000Z",
          tokenRevoked: true
        })
        const view = yield* (yield* clientFor(token)).administration.directorySync()
        expect(view).toMatchObject({ eligible: true, connection: { status: "ACTIVE", tokenActive: false, tokenExpiresAt: null } })
      }))

    it.effect("a paused connection with a token of no expiry: tokenExpiresAt null, tokenActive true, pausedAt and pausedReason given", () =>
      Effect.gen(function*() {
        const token = yield* orgWithConnection("Paused Org", "starter", {
          status: "PAUSED",
          tokenCreatedAt: "2026-01-01T00:00:00.000Z",
          pausedAt: "2026-03-01T00:00:00.000Z",
          pausedReason: "Too many rejected requests"
        })
        const view = yield* (yield* clientFor(token)).administration.directorySync()
        expect(view).toMatchObject({
          eligible: false,
          connection: {
            status: "PAUSED",
            tokenExpiresAt: null,
            tokenActive: true,
            pausedAt: "2026-03-01T00:00:00.000Z",
            pausedReason: "Too many rejected requests",
            sendWelcomeImmediately: false,
            countProvisioned: 0
          }
        })
      }))

    it.effect("a connection set up without a token yet: tokenActive false, token dates null", () =>
      Effect.gen(function*() {
        const token = yield* orgWithConnection("Pending Org", "enterprise", { status: "PENDING" })
        const view = yield* (yield* clientFor(token)).administration.directorySync()
        expect(view.connection).toMatchObject({
          status: "PENDING",
          tokenActive: false,
          tokenCreatedAt: null,
          tokenLastUsedAt: null,
          tokenExpiresAt: null,
          lastSyncAt: null
        })
      }))

    it.effect("another organization's admin, never set up, sees their own: not eligible, connection null", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const response = yield* raw("GET", "/v1/directory-sync", { token: tokens.otherOrgAdmin })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({ eligible: false, connection: null })
      }))

    it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of badTokens) {
          const response = yield* raw("GET", "/v1/directory-sync", { token: tokens[kind] })
          expect(response.status, kind).toBe(401)
          expect(response.json, kind).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
        }
      }))
  })

  describe("GET /v1/directory-sync/events", () => {
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
          const response = yield* raw("GET", `/v1/directory-sync/events?outcome=${outcome}`, { token: tokens.admin })
          expect(response.status, outcome).toBe(400)
          expect(response.json, outcome).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) })
        }
      }))

    it.effect("walking pages of 1 and of 2, unfiltered and APPLIED only, gives every event once in the first page's order", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const client = yield* clientFor(tokens.owner)
        for (const outcome of [undefined, "APPLIED"] as const) {
          const full = (yield* client.administration.directoryEvents({ urlParams: outcome === undefined ? {} : { outcome } })).data
          for (const limit of [1, 2]) {
            const seen: Array<unknown> = []
            let cursor: string | undefined = undefined
            let pages = 0
            do {
              const page: { data: ReadonlyArray<unknown>; nextCursor: string | null } = yield* client.administration.directoryEvents({
                urlParams: { limit, ...(outcome === undefined ? {} : { outcome }), ...(cursor === undefined ? {} : { cursor }) }
              })
              seen.push(...page.data)
              cursor = page.nextCursor ?? undefined
              pages++
            } while (cursor !== undefined && pages < 20)
            expect(seen, `${outcome ?? "all"} by ${limit}`).toEqual(full)
            expect(pages).toBe(Math.ceil(full.length / limit))
          }
        }
      }))

    it.effect("a tampered, made-up or foreign cursor is 400 INVALID_CURSOR, never the first page", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const client = yield* clientFor(tokens.admin)
        const unfiltered = yield* client.administration.directoryEvents({ urlParams: { limit: 2 } })
        const applied = yield* client.administration.directoryEvents({ urlParams: { outcome: "APPLIED", limit: 1 } })
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["tampered", "", tamper(unfiltered.nextCursor!)],
          ["made up", "", "abc"],
          ["not base64 json", "", "%%%.%%%"],
          ["unfiltered cursor with a filter", "&outcome=APPLIED", unfiltered.nextCursor!],
          ["APPLIED cursor without a filter", "", applied.nextCursor!],
          ["APPLIED cursor under another filter", "&outcome=REJECTED", applied.nextCursor!]
        ]
        for (const [label, query, cursor] of cases) {
          const response = yield* raw("GET", `/v1/directory-sync/events?cursor=${encodeURIComponent(cursor)}${query}`, { token: tokens.admin })
          expect(response.status, label).toBe(400)
          expect(response.json, label).toMatchObject({ code: "INVALID_CURSOR", message: expect.any(String) })
        }
        const foreign = yield* raw("GET", `/v1/directory-sync/events?cursor=${encodeURIComponent(unfiltered.nextCursor!)}`, {
          token: tokens.otherOrgAdmin
        })
        expect(foreign.status).toBe(400)
        expect(foreign.json).toMatchObject({ code: "INVALID_CURSOR" })
      }))

    it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const limit of ["0", "101", "abc"]) {
          const response = yield* raw("GET", `/v1/directory-sync/events?limit=${limit}`, { token: tokens.owner })
          expect(response.status, limit).toBe(400)
          expect(response.json, limit).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) })
        }
      }))

    it.effect("viewer, team admin and external get 403 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of refused) {
          const response = yield* raw("GET", "/v1/directory-sync/events", { token: tokens[kind] })
          expect(response.status, kind).toBe(403)
          expect(response.json, kind).toMatchObject({ code: "FORBIDDEN", message: expect.any(String) })
        }
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
            events: [{ operation: "CREATE", outcome: "APPLIED", userName: "only@third.test", createdAt: at(20) }]
          }
        })
        const page = yield* (yield* clientFor(third.tokens.thirdAdmin)).administration.directoryEvents({ urlParams: {} })
        expect(page.data.map((event) => event.userName)).toEqual(["only@third.test"])
      }))

    it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of badTokens) {
          const response = yield* raw("GET", "/v1/directory-sync/events?outcome=APPLIED", { token: tokens[kind] })
          expect(response.status, kind).toBe(401)
          expect(response.json, kind).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
        }
      }))
  })
})
