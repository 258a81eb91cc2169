import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DirectoryConnections } from "@tks/core/directory/connections"
import { acmeCallerMatrix, badTokens, type CallerKind, withCallerMatrix } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { importFixture, raw, TestServerLive } from "./support/server.js"

/**
 * The acts on the identity-directory connection over HTTP: issuing its
 * token (connect or rotate), pausing and resuming. Their rules in detail
 * (lifetimes, what the token check answers, the audit rows' changes) are
 * core's (directory-connections.test.ts); the wire bodies, the caller
 * matrix, Idempotency-Key and what GET /v1/directory-sync then shows are here.
 */
const organizationUpdaters: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const refused: ReadonlyArray<CallerKind> = ["viewer", "teamAdmin", "external"]

const acts = [
  { method: "POST", path: "/v1/directory-sync/token", body: "{}" },
  { method: "POST", path: "/v1/directory-sync/pause", body: JSON.stringify({ reason: "refused" }) },
  { method: "POST", path: "/v1/directory-sync/resume", body: undefined }
] as const

const readSync = (token: string) => Effect.map(raw("GET", "/v1/directory-sync", { token }), (response) => response.json)
const auditActions = (token: string) =>
  Effect.map(raw("GET", "/v1/audit-events?limit=100", { token }), (response) => response.json.data.map((row: any) => row.action))

/** A fresh organization (acme's caller roles, no directory connection) and its callers' tokens. */
const freshMatrix = (name: string) =>
  Effect.map(withCallerMatrix({ organization: { name, plan: "enterprise" } }), (matrix) => matrix.tokens)

/** An organization of its own with one owner, and the owner's token. */
const ownerOf = (name: string) =>
  importFixture({
    organization: { name, plan: "enterprise" },
    people: [{ key: "boss", name: `${name} Boss`, email: `boss@${name.toLowerCase().replace(/\W+/g, "-")}.test`, role: "owner", tokenScopes: [] }]
  }).pipe(Effect.map((result) => result.tokens.boss!))

/** What the token check answers a directory request with this token (a refusal as plain fields: the error carries its span). */
const authenticate = (bearer: string) =>
  Effect.flatMap(DirectoryConnections, (directory) => directory.authenticate(bearer)).pipe(
    Effect.catchTag("DirectoryAuthRejected", ({ _tag, detail, reason, status }) => Effect.succeed({ _tag, status, reason, detail })),
    Effect.orDie
  )

layer(TestServerLive, { excludeTestServices: true })("the directory connection's acts", (it) => {
  it.effect("owner, admin and billing admin each get 201 with the connection and a new scim_ token; the first connects it, the next rotate it and the tokens before stop working; GET shows the same connection, never the token", () =>
    Effect.gen(function*() {
      const tokens = yield* freshMatrix("Issuers")
      const issued: Array<{ connection: any; token: string }> = []
      for (const kind of organizationUpdaters) {
        const response = yield* raw("POST", "/v1/directory-sync/token", { token: tokens[kind], body: "{}" })
        expect(response.status, kind).toBe(201)
        expect(Object.keys(response.json), kind).toEqual(["connection", "token"])
        expect(response.json.token, kind).toMatch(/^scim_[A-Za-z0-9_-]{43}$/)
        issued.push(response.json)
      }
      expect(new Set(issued.map((answer) => answer.token)).size).toBe(3)
      expect(issued[0]!.connection).toMatchObject({ status: "PENDING", tokenActive: true, tokenExpiresAt: null, countProvisioned: 0 })
      expect(issued[2]!.connection.createdAt).toBe(issued[0]!.connection.createdAt)
      // The token just replaced is recognised (and its use recorded); one replaced before it is unknown.
      expect(yield* authenticate(issued[1]!.token)).toMatchObject({ _tag: "DirectoryAuthRejected", status: 401, reason: "TOKEN_REVOKED" })
      expect(yield* authenticate(issued[0]!.token)).toMatchObject({ _tag: "DirectoryAuthRejected", status: 401, reason: null })
      expect(yield* authenticate(issued[2]!.token)).toMatchObject({ status: "ACTIVE" })

      const sync = yield* raw("GET", "/v1/directory-sync", { token: tokens.owner })
      expect(sync.json.connection).toEqual({ ...issued[2]!.connection, status: "ACTIVE", tokenLastUsedAt: expect.any(String) })
      const audit = yield* raw("GET", "/v1/audit-events?limit=100", { token: tokens.owner })
      expect(audit.json.data.map((row: any) => row.action).slice(0, 3)).toEqual([
        "directory_token.rotated",
        "directory_token.rotated",
        "directory_connection.connected"
      ])
      expect(audit.json.data[2].actor).toMatchObject({ type: "person" })
      for (const answer of issued) {
        expect(sync.text).not.toContain(answer.token)
        expect(audit.text).not.toContain(answer.token)
      }
      const events = yield* raw("GET", "/v1/directory-sync/events", { token: tokens.owner })
      expect(events.json.data.map((event: any) => [event.operation, event.outcome, event.reason])).toEqual([["AUTH", "REJECTED", "TOKEN_REVOKED"]])
    }))

  it.effect("viewer, team admin and external get 403 on each act and nothing changes; no token, a made-up, an expired or a revoked token get 401", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const before = yield* readSync(tokens.owner)
      const actionsBefore = yield* auditActions(tokens.owner)
      for (const act of acts) {
        for (const kind of refused) {
          expectError(yield* raw(act.method, act.path, { token: tokens[kind], body: act.body }), 403, "FORBIDDEN", `${kind} ${act.path}`)
        }
        for (const kind of badTokens) {
          expectError(yield* raw(act.method, act.path, { token: tokens[kind], body: act.body }), 401, "UNAUTHORIZED", `${kind} ${act.path}`)
        }
      }
      expect(yield* readSync(tokens.owner)).toEqual(before)
      expect(yield* auditActions(tokens.owner)).toEqual(actionsBefore)
    }))

  it.effect("another organization's admin acts on their own organization's connection only: acme's is unchanged", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const acmeBefore = yield* readSync(tokens.owner)
      const otherBefore = yield* readSync(tokens.otherOrgAdmin)
      expect(otherBefore).toEqual({ eligible: false, connection: null })
      expectError(yield* raw("POST", "/v1/directory-sync/pause", { token: tokens.otherOrgAdmin, body: "{}" }), 404, "NOT_FOUND")
      const issued = yield* raw("POST", "/v1/directory-sync/token", { token: tokens.otherOrgAdmin, body: "{}" })
      expect(issued.status).toBe(201)
      const paused = yield* raw("POST", "/v1/directory-sync/pause", { token: tokens.otherOrgAdmin, body: "{}" })
      expect(paused.json).toMatchObject({ status: "PAUSED" })
      expect((yield* readSync(tokens.otherOrgAdmin)).connection).toEqual(paused.json)
      expect(yield* readSync(tokens.owner)).toEqual(acmeBefore)
    }))

  it.effect("pausing answers 200 with PAUSED, pausedAt and the trimmed reason as GET shows them, and the directory is refused 403 with it; resuming answers 200 ACTIVE with the pause cleared", () =>
    Effect.gen(function*() {
      const owner = yield* ownerOf("Paused Over Http")
      const { token } = (yield* raw("POST", "/v1/directory-sync/token", { token: owner, body: JSON.stringify({ expiresInDays: 90 }) })).json
      yield* authenticate(token)
      const paused = yield* raw("POST", "/v1/directory-sync/pause", { token: owner, body: JSON.stringify({ reason: " Tenant move " }) })
      expect(paused.status).toBe(200)
      expect(paused.json).toMatchObject({ status: "PAUSED", pausedAt: expect.any(String), pausedReason: "Tenant move", tokenActive: true })
      expect((yield* readSync(owner)).connection).toEqual(paused.json)
      expect(yield* authenticate(token)).toMatchObject({ status: 403, detail: "the directory connection is paused: Tenant move" })

      const resumed = yield* raw("POST", "/v1/directory-sync/resume", { token: owner })
      expect(resumed.status).toBe(200)
      expect(resumed.json).toMatchObject({ status: "ACTIVE", pausedAt: null, pausedReason: null })
      expect((yield* readSync(owner)).connection).toEqual(resumed.json)
      expect(yield* authenticate(token)).toMatchObject({ status: "ACTIVE" })
      expect((yield* auditActions(owner)).slice(0, 3)).toEqual([
        "directory_connection.resumed",
        "directory_connection.paused",
        "directory_connection.connected"
      ])
    }))

  it.effect("a body {} issues a token of no expiry and pauses without a reason; no body, a blank or over-long reason, an unknown field or an expiresInDays out of 1..3650 is 400 VALIDATION_ERROR and changes nothing", () =>
    Effect.gen(function*() {
      const owner = yield* ownerOf("Pause Inputs")
      for (const body of ["{\"expiresInDays\": 0}", "{\"expiresInDays\": 3651}", "{\"expiresInDays\": 2.5}", "{\"expires\": 3}"]) {
        expectError(yield* raw("POST", "/v1/directory-sync/token", { token: owner, body }), 400, "VALIDATION_ERROR", body)
      }
      expect((yield* readSync(owner)).connection).toBeNull()
      // A JSON object is the body, `{}` when nothing is said.
      expectError(yield* raw("POST", "/v1/directory-sync/token", { token: owner }), 400, "VALIDATION_ERROR", "no body")
      expect((yield* readSync(owner)).connection).toBeNull()
      const issued = yield* raw("POST", "/v1/directory-sync/token", { token: owner, body: "{}" })
      expect(issued.status).toBe(201)
      expect(issued.json.connection.tokenExpiresAt).toBeNull()
      const before = yield* readSync(owner)
      for (const body of [undefined, JSON.stringify({ reason: "   " }), JSON.stringify({ reason: "x".repeat(501) }), JSON.stringify({ why: "x" })]) {
        expectError(yield* raw("POST", "/v1/directory-sync/pause", { token: owner, body }), 400, "VALIDATION_ERROR", String(body))
      }
      expect(yield* readSync(owner)).toEqual(before)
      const bare = yield* raw("POST", "/v1/directory-sync/pause", { token: owner, body: "{}" })
      expect(bare.status).toBe(200)
      expect(bare.json).toMatchObject({ status: "PAUSED", pausedReason: null })
    }))

  it.effect("without a connection, pausing and resuming are 404 NOT_FOUND", () =>
    Effect.gen(function*() {
      const owner = yield* ownerOf("No Connection")
      for (const act of acts.slice(1)) expectError(yield* raw(act.method, act.path, { token: owner, body: act.body }), 404, "NOT_FOUND", act.path)
    }))

  it.effect("an Idempotency-Key replays a pause (one audit row) but never a token: the same key again issues another token and the first stops working", () =>
    Effect.gen(function*() {
      const owner = yield* ownerOf("Keyed Acts")
      const key = { "idempotency-key": "directory-token-1" }
      const first = yield* raw("POST", "/v1/directory-sync/token", { token: owner, body: "{}", headers: key })
      const second = yield* raw("POST", "/v1/directory-sync/token", { token: owner, body: "{}", headers: key })
      expect([first.status, second.status]).toEqual([201, 201])
      expect(second.headers.get("idempotent-replayed")).toBeNull()
      expect(second.json.token).not.toBe(first.json.token)
      expect(yield* authenticate(first.json.token)).toMatchObject({ reason: "TOKEN_REVOKED" })

      const pauseKey = { "idempotency-key": "directory-pause-1" }
      const body = JSON.stringify({ reason: "once" })
      const paused = yield* raw("POST", "/v1/directory-sync/pause", { token: owner, body, headers: pauseKey })
      const replayed = yield* raw("POST", "/v1/directory-sync/pause", { token: owner, body, headers: pauseKey })
      expect(replayed.headers.get("idempotent-replayed")).toBe("true")
      expect(replayed.json).toEqual(paused.json)
      expect((yield* auditActions(owner)).filter((action: string) => action === "directory_connection.paused")).toHaveLength(1)
    }))
})
