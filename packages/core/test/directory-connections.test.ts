import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Layer, Stream } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { Administration } from "../src/administration/service.js"
import { DirectoryConnections } from "../src/directory/connections.js"
import { JournalReads } from "../src/journal/reads.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { actorIn, allowed } from "./support/access.js"

/**
 * The directory connection's acts (connect, rotate, pause, resume) and the
 * check of each directory request's token: what the read then shows, what
 * the audit log and the directory events record, and that the token is
 * shown once and never stored or recorded.
 */
const TestLayer = Layer.mergeAll(DirectoryConnections.Default, Administration.Default, FixtureImporter.Default, JournalReads.Default).pipe(
  Layer.provideMerge(TestDatabaseLive)
)

const operator = Caller.system("cli")

const newOrg = (name: string) =>
  Effect.gen(function*() {
    const result = yield* (yield* FixtureImporter).importOrganization({ organization: { name, plan: "enterprise" } })
    return OrganizationId.make(result.organizationId)
  }).pipe(Effect.orDie)

/** The connection as GET /v1/directory-sync shows it to an owner. */
const read = (orgId: string) =>
  Effect.flatMap(Administration, (administration) =>
    administration.directorySync(allowed(actorIn(orgId, "owner"), policies.administration.directorySync))).pipe(
      Effect.map((view) => view.connection)
    )

/** The directory events as GET /v1/directory-sync/events lists them, oldest first. */
const events = (orgId: string) =>
  Effect.flatMap(Administration, (administration) =>
    administration.directoryEvents(allowed(actorIn(orgId, "owner"), policies.administration.directoryEvents), {})).pipe(
      Effect.map((page) => [...page.data].reverse()),
      Effect.orDie
    )

/** The organization's audit rows, oldest first. */
const audit = (orgId: string) =>
  Effect.flatMap(JournalReads, (reads) => Stream.runCollect(reads.auditExport({ orgId, since: null, until: null }))).pipe(
    Effect.map(Chunk.toArray),
    Effect.orDie
  )

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** The refusal `authenticate` answers, or "accepted". */
const refusalOf = (bearer: string | undefined) =>
  Effect.flatMap(DirectoryConnections, (directory) => directory.authenticate(bearer)).pipe(
    Effect.match({ onFailure: (error) => error, onSuccess: () => "accepted" as const })
  )

const connected = (orgId: OrganizationId, expiresInDays?: number) =>
  Effect.flatMap(DirectoryConnections, (directory) => directory.connect(operator, orgId, { expiresInDays }))

layer(TestLayer)("the directory connection", (it) => {
  describe("connecting", () => {
    it.effect("makes a PENDING connection whose token (scim_ and 43 base64url characters) is answered once and stored only as its SHA-256", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const orgId = yield* newOrg("Connecting")
        const issued = yield* connected(orgId)
        expect(issued.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/)
        expect(issued.connection).toMatchObject({
          status: "PENDING",
          tokenActive: true,
          tokenExpiresAt: null,
          tokenLastUsedAt: null,
          lastSyncAt: null,
          countProvisioned: 0
        })
        expect(yield* read(orgId)).toEqual(issued.connection)
        const [row] = yield* sql<Record<string, unknown>>`SELECT * FROM directory_connections WHERE org_id = ${orgId}`
        expect(row!.token_hash).toBe(sha256(issued.token))
        expect(JSON.stringify(row)).not.toContain(issued.token)
      }))

    it.effect("records directory_connection.connected by its caller with the status and the token's dates, never the token", () =>
      Effect.gen(function*() {
        const orgId = yield* newOrg("Connect audited")
        const issued = yield* connected(orgId, 30)
        const rows = yield* audit(orgId)
        expect(rows.map((row) => row.action)).toEqual(["organization.imported", "directory_connection.connected"])
        expect(rows[1]).toMatchObject({
          actor: { type: "system", name: "cli" },
          targets: [{ type: "directory_connection", id: orgId }],
          changes: {
            status: { new: "PENDING" },
            tokenCreatedAt: { new: issued.connection.tokenCreatedAt },
            tokenExpiresAt: { new: issued.connection.tokenExpiresAt }
          }
        })
        expect(Date.parse(issued.connection.tokenExpiresAt!) - Date.parse(issued.connection.tokenCreatedAt!)).toBe(30 * 86_400_000)
        expect(JSON.stringify(rows)).not.toContain(issued.token)
      }))

    it.effect("a connected directory is refused (rotate instead), an unknown organization is NotFound, a lifetime out of 1..3650 days is VALIDATION_ERROR; none records anything", () =>
      Effect.gen(function*() {
        const orgId = yield* newOrg("Connected twice")
        yield* connected(orgId)
        const again = yield* Effect.flip(connected(orgId))
        expect(again).toMatchObject({ _tag: "DirectoryAlreadyConnected", message: expect.stringContaining("rotate its token instead") })
        expect(yield* Effect.flip(connected(OrganizationId.make("org_nobody")))).toMatchObject({ _tag: "NotFound" })
        const fresh = yield* newOrg("Bad lifetime")
        for (const days of [0, 3651, 1.5]) {
          expect(yield* Effect.flip(connected(fresh, days)), String(days)).toMatchObject({
            _tag: "BadRequest",
            code: "VALIDATION_ERROR",
            issues: [{ path: "expiresInDays" }]
          })
        }
        expect((yield* audit(orgId)).map((row) => row.action)).toEqual(["organization.imported", "directory_connection.connected"])
        expect(yield* read(fresh)).toBeNull()
      }))

    it.effect("a person acts on their own organization only: another organization's is NotFound and unchanged", () =>
      Effect.gen(function*() {
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Theirs")
        const mine = yield* newOrg("Mine")
        const outsider = Caller.person(allowed(actorIn(mine, "owner"), policies.administration.directoryToken))
        expect(yield* Effect.flip(directory.issueToken(outsider, orgId, {}))).toMatchObject({ _tag: "NotFound" })
        expect(yield* Effect.flip(directory.pause(outsider, orgId, null))).toMatchObject({ _tag: "NotFound" })
        expect(yield* read(orgId)).toBeNull()
        const own = yield* directory.issueToken(outsider, mine, {})
        expect(own.connection.status).toBe("PENDING")
        expect((yield* audit(mine))[1]).toMatchObject({ action: "directory_connection.connected", actor: { type: "person", personId: "usr_test" } })
      }))
  })

  describe("the token check", () => {
    it.effect("the first use turns PENDING into ACTIVE and records the last use; then the last use is written at most once a minute", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("First use")
        const { token } = yield* connected(orgId)
        expect(yield* directory.authenticate(token)).toEqual({ orgId, status: "ACTIVE" })
        const used = yield* read(orgId)
        expect(used).toMatchObject({ status: "ACTIVE", tokenLastUsedAt: expect.any(String) })

        yield* sql`UPDATE directory_connections SET token_last_used_at = now() - interval '30 seconds' WHERE org_id = ${orgId}`
        const recent = (yield* read(orgId))!.tokenLastUsedAt
        yield* directory.authenticate(token)
        expect((yield* read(orgId))!.tokenLastUsedAt).toBe(recent)

        yield* sql`UPDATE directory_connections SET token_last_used_at = now() - interval '2 minutes' WHERE org_id = ${orgId}`
        const stale = (yield* read(orgId))!.tokenLastUsedAt!
        yield* directory.authenticate(token)
        expect(Date.parse((yield* read(orgId))!.tokenLastUsedAt!)).toBeGreaterThan(Date.parse(stale) + 60_000)
        // Accepted requests leave no directory event.
        expect(yield* events(orgId)).toEqual([])
      }))

    it.effect("no token, a made-up one or an access token: 401 without a reason, and no organization records anything", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const before = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM directory_events`
        for (const bearer of [undefined, "", "scim_never-issued", "tks_an-access-token", `scim_${"x".repeat(300)}`]) {
          expect(yield* refusalOf(bearer), String(bearer)).toMatchObject({
            _tag: "DirectoryAuthRejected",
            status: 401,
            reason: null,
            detail: "the bearer token is missing or is not a directory token of this service"
          })
        }
        expect(yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM directory_events`).toEqual(before)
      }))

    it.effect("a revoked token is 401 TOKEN_REVOKED and an expired one 401 TOKEN_EXPIRED, each recorded as AUTH REJECTED with its reason", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const revokedOrg = yield* newOrg("Revoked")
        const revoked = yield* connected(revokedOrg)
        yield* sql`UPDATE directory_connections SET token_revoked_at = now() WHERE org_id = ${revokedOrg}`
        expect(yield* refusalOf(revoked.token)).toMatchObject({ status: 401, reason: "TOKEN_REVOKED", detail: "the directory token was revoked" })
        expect(yield* events(revokedOrg)).toEqual([
          { operation: "AUTH", outcome: "REJECTED", reason: "TOKEN_REVOKED", userName: null, createdAt: expect.any(String) }
        ])

        const expiredOrg = yield* newOrg("Expired")
        const expired = yield* connected(expiredOrg, 5)
        yield* sql`UPDATE directory_connections SET token_expires_at = '2026-01-02T03:04:05Z' WHERE org_id = ${expiredOrg}`
        expect(yield* refusalOf(expired.token)).toMatchObject({
          status: 401,
          reason: "TOKEN_EXPIRED",
          detail: "the directory token expired on 2026-01-02T03:04:05.000Z"
        })
        expect((yield* events(expiredOrg)).map((event) => [event.operation, event.outcome, event.reason])).toEqual([["AUTH", "REJECTED", "TOKEN_EXPIRED"]])
        const [message] = yield* sql<{ message: string }>`SELECT message FROM directory_events WHERE org_id = ${expiredOrg}`
        expect(message!.message).toBe("the directory token expired on 2026-01-02T03:04:05.000Z")
        // Neither counted as a use.
        expect(yield* read(expiredOrg)).toMatchObject({ status: "PENDING", tokenLastUsedAt: null, tokenActive: false })
      }))
  })

  describe("rotating", () => {
    it.effect("the old token fails at once (401 TOKEN_REVOKED, recorded), the new one works; status, counters and the lifetime are kept; the audit row shows the token's dates only", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Rotating")
        const first = yield* connected(orgId, 30)
        yield* directory.authenticate(first.token)
        yield* sql`UPDATE directory_connections SET count_provisioned = 4, count_skipped = 2 WHERE org_id = ${orgId}`
        const before = (yield* read(orgId))!

        const second = yield* directory.rotateToken(operator, orgId, {})
        expect(second.token).not.toBe(first.token)
        expect(second.connection).toMatchObject({ status: "ACTIVE", countProvisioned: 4, countSkipped: 2, tokenLastUsedAt: null, tokenActive: true })
        expect(Date.parse(second.connection.tokenExpiresAt!) - Date.parse(second.connection.tokenCreatedAt!)).toBe(30 * 86_400_000)
        expect(yield* refusalOf(first.token)).toMatchObject({
          status: 401,
          reason: "TOKEN_REVOKED",
          detail: "the directory token was replaced by a newer one; use the current token"
        })
        expect(yield* directory.authenticate(second.token)).toEqual({ orgId, status: "ACTIVE" })
        expect((yield* events(orgId)).map((event) => event.reason)).toEqual(["TOKEN_REVOKED"])

        const rotated = (yield* audit(orgId)).at(-1)!
        expect(rotated).toMatchObject({
          action: "directory_token.rotated",
          targets: [{ type: "directory_connection", id: orgId }],
          changes: {
            tokenCreatedAt: { old: before.tokenCreatedAt, new: second.connection.tokenCreatedAt },
            tokenExpiresAt: { old: before.tokenExpiresAt, new: second.connection.tokenExpiresAt }
          }
        })
        expect(Object.keys(rotated.changes!).sort()).toEqual(["tokenCreatedAt", "tokenExpiresAt"])
        expect(JSON.stringify(rotated)).not.toContain(second.token)
        const [row] = yield* sql<Record<string, unknown>>`SELECT * FROM directory_connections WHERE org_id = ${orgId}`
        expect(row).toMatchObject({ token_hash: sha256(second.token), previous_token_hash: sha256(first.token) })
      }))

    it.effect("a lifetime given replaces the old one; a token of no expiry stays without one; no connection is NotFound", () =>
      Effect.gen(function*() {
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Rotating lifetimes")
        yield* connected(orgId)
        expect((yield* directory.rotateToken(operator, orgId, {})).connection.tokenExpiresAt).toBeNull()
        const dated = (yield* directory.rotateToken(operator, orgId, { expiresInDays: 2 })).connection
        expect(Date.parse(dated.tokenExpiresAt!) - Date.parse(dated.tokenCreatedAt!)).toBe(2 * 86_400_000)
        expect(yield* Effect.flip(directory.rotateToken(operator, yield* newOrg("Never connected"), {}))).toMatchObject({
          _tag: "NotFound",
          message: "The organization has no directory connection; issue a directory token first"
        })
        expect(yield* Effect.flip(directory.rotateToken(operator, OrganizationId.make("org_nobody"), {}))).toMatchObject({
          _tag: "NotFound",
          message: "No such organization"
        })
      }))

    it.effect("the HTTP act connects when there is no connection and rotates when there is one", () =>
      Effect.gen(function*() {
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Issue or rotate")
        const first = yield* directory.issueToken(operator, orgId, {})
        const second = yield* directory.issueToken(operator, orgId, {})
        expect(second.connection.createdAt).toBe(first.connection.createdAt)
        expect(yield* refusalOf(first.token)).toMatchObject({ reason: "TOKEN_REVOKED" })
        expect((yield* audit(orgId)).map((row) => row.action).slice(1)).toEqual(["directory_connection.connected", "directory_token.rotated"])
      }))
  })

  describe("pausing and resuming", () => {
    it.effect("a paused connection's requests get 403 with the reason (recorded CONNECTION_PAUSED); the read shows PAUSED, pausedAt and pausedReason; resuming lets them in again as ACTIVE", () =>
      Effect.gen(function*() {
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Pausing")
        const { token } = yield* connected(orgId)
        yield* directory.authenticate(token)

        const paused = yield* directory.pause(operator, orgId, "  Moving to a new tenant ")
        expect(paused).toMatchObject({ status: "PAUSED", pausedAt: expect.any(String), pausedReason: "Moving to a new tenant", tokenActive: true })
        expect(yield* read(orgId)).toEqual(paused)
        expect(yield* refusalOf(token)).toMatchObject({
          status: 403,
          reason: "CONNECTION_PAUSED",
          detail: "the directory connection is paused: Moving to a new tenant"
        })
        expect((yield* events(orgId)).map((event) => [event.operation, event.outcome, event.reason])).toEqual([["AUTH", "REJECTED", "CONNECTION_PAUSED"]])

        const resumed = yield* directory.resume(operator, orgId)
        expect(resumed).toMatchObject({ status: "ACTIVE", pausedAt: null, pausedReason: null })
        expect(yield* directory.authenticate(token)).toEqual({ orgId, status: "ACTIVE" })

        const rows = (yield* audit(orgId)).slice(2)
        expect(rows.map((row) => [row.action, row.changes])).toEqual([
          ["directory_connection.paused", { status: { old: "ACTIVE", new: "PAUSED" }, pausedReason: { old: null, new: "Moving to a new tenant" } }],
          ["directory_connection.resumed", { status: { old: "PAUSED", new: "ACTIVE" }, pausedReason: { old: "Moving to a new tenant", new: null } }]
        ])
      }))

    it.effect("a connection never used resumes PENDING; pausing a paused one or resuming one not paused changes and records nothing; a rotation keeps the pause", () =>
      Effect.gen(function*() {
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Pausing unused")
        yield* connected(orgId)
        const paused = yield* directory.pause(operator, orgId, null)
        expect(paused).toMatchObject({ status: "PAUSED", pausedReason: null })
        expect(yield* directory.pause(operator, orgId, "another reason")).toEqual(paused)
        const rotated = yield* directory.rotateToken(operator, orgId, {})
        expect(rotated.connection).toMatchObject({ status: "PAUSED", pausedAt: paused.pausedAt })
        expect(yield* refusalOf(rotated.token)).toMatchObject({ status: 403, detail: "the directory connection is paused" })
        expect((yield* directory.resume(operator, orgId)).status).toBe("PENDING")
        expect((yield* directory.resume(operator, orgId)).status).toBe("PENDING")
        expect((yield* audit(orgId)).map((row) => row.action).slice(1)).toEqual([
          "directory_connection.connected",
          "directory_connection.paused",
          "directory_token.rotated",
          "directory_connection.resumed"
        ])
      }))

    it.effect("a blank or over-long reason is VALIDATION_ERROR; no connection is NotFound; nothing is recorded", () =>
      Effect.gen(function*() {
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Pause refused")
        expect(yield* Effect.flip(directory.pause(operator, orgId, null))).toMatchObject({ _tag: "NotFound" })
        expect(yield* Effect.flip(directory.resume(operator, orgId))).toMatchObject({ _tag: "NotFound" })
        yield* connected(orgId)
        for (const reason of ["   ", "x".repeat(501)]) {
          expect(yield* Effect.flip(directory.pause(operator, orgId, reason))).toMatchObject({
            code: "VALIDATION_ERROR",
            issues: [{ path: "reason" }]
          })
        }
        expect((yield* read(orgId))!.status).toBe("PENDING")
        expect((yield* audit(orgId)).map((row) => row.action)).toEqual(["organization.imported", "directory_connection.connected"])
      }))
  })

  describe("a disconnected connection", () => {
    it.effect("its token is 401 CONNECTION_DISCONNECTED (recorded); pausing, resuming or rotating it is DIRECTORY_CONNECTION_DISCONNECTED; connecting makes it PENDING again with a new token, its counters kept", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const directory = yield* DirectoryConnections
        const orgId = yield* newOrg("Disconnected")
        const old = yield* connected(orgId)
        yield* sql`UPDATE directory_connections SET status = 'DISCONNECTED', count_updated = 7 WHERE org_id = ${orgId}`
        expect(yield* refusalOf(old.token)).toMatchObject({ status: 401, reason: "CONNECTION_DISCONNECTED" })
        const refusals = [
          yield* Effect.flip(directory.pause(operator, orgId, null)),
          yield* Effect.flip(directory.resume(operator, orgId)),
          yield* Effect.flip(directory.rotateToken(operator, orgId, {}))
        ]
        for (const refusal of refusals) expect(refusal).toMatchObject({ _tag: "BadRequest", code: "DIRECTORY_CONNECTION_DISCONNECTED" })
        const again = yield* connected(orgId)
        expect(again.connection).toMatchObject({ status: "PENDING", countUpdated: 7, tokenActive: true })
        expect(yield* refusalOf(old.token)).toMatchObject({ status: 401, reason: "TOKEN_REVOKED" })
        expect(yield* directory.authenticate(again.token)).toEqual({ orgId, status: "ACTIVE" })
        expect((yield* events(orgId)).map((event) => event.reason)).toEqual(["CONNECTION_DISCONNECTED", "TOKEN_REVOKED"])
        expect((yield* audit(orgId)).at(-1)).toMatchObject({
          action: "directory_connection.connected",
          changes: { status: { old: "DISCONNECTED", new: "PENDING" } }
        })
      }))
  })
})
