import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import {
  DIRECTORY_PAUSED_REASON_MAX_LENGTH,
  DIRECTORY_TOKEN_MAX_DAYS,
  type DirectoryConnection,
  type DirectoryConnectionStatus,
  DirectoryPausedReason,
  DirectoryTokenDays,
  type DirectoryTokenIssued
} from "@tks/domain/administration"
import type { Caller } from "@tks/domain/caller"
import { BadRequest, BadRequestCode, InputIssue, NotFound } from "@tks/domain/errors"
import type { OrganizationId } from "@tks/domain/ids"
import { connectionView } from "../administration/connection-view.js"
import { AdministrationRepo } from "../administration/repo.js"
import { hashToken } from "../auth/token-secret.js"
import { isoOrNull } from "../common/time.js"
import { traced } from "../common/traced.js"
import { Journal } from "../journal/journal.js"
import { type ConnectionFields, connectionAct } from "./acts.js"
import { DirectoryConnectionsRepo, type LockedConnectionRow, type TokenLifetime } from "./connections-repo.js"
import { DirectoryAlreadyConnected, DirectoryAuthRejected } from "./errors.js"
import { DirectoryEvents } from "./events.js"
import { authRefusal, resumedStatus } from "./rules.js"
import { generateDirectoryToken, looksLikeDirectoryToken } from "./token.js"

export interface DirectoryTokenOptions {
  /** Days until the new token expires (1 to DIRECTORY_TOKEN_MAX_DAYS); see `IssueDirectoryToken` for what leaving it out means. */
  readonly expiresInDays?: number | undefined
}

/** Who a directory request comes from, once its token is accepted. */
export interface DirectoryCaller {
  readonly orgId: OrganizationId
  /** ACTIVE or ERROR: the request that is a token's first use turns a PENDING connection ACTIVE. */
  readonly status: DirectoryConnectionStatus
}

const noOrganization = () => new NotFound({ message: "No such organization" })

const noConnection = () =>
  new NotFound({ message: "The organization has no directory connection; issue a directory token first" })

const disconnected = () =>
  new BadRequest({
    code: "DIRECTORY_CONNECTION_DISCONNECTED",
    message: "The directory connection is disconnected; issue a directory token to connect it again"
  })

const unknownToken = () =>
  new DirectoryAuthRejected({ status: 401, detail: "the bearer token is missing or is not a directory token of this service", reason: null })

const invalid = (path: string, message: string) =>
  new BadRequest({ code: BadRequestCode.validation, message: `${path}: ${message}`, issues: [new InputIssue({ path, message })] })

const lifetimeOf = (expiresInDays: number | undefined, omitted: TokenLifetime): Effect.Effect<TokenLifetime, BadRequest> =>
  expiresInDays === undefined
    ? Effect.succeed(omitted)
    : Schema.is(DirectoryTokenDays)(expiresInDays)
    ? Effect.succeed({ days: expiresInDays })
    : Effect.fail(invalid("expiresInDays", `must be a whole number of days from 1 to ${DIRECTORY_TOKEN_MAX_DAYS}`))

/** The reason as the HTTP contract decodes it (trimmed, 1 to 500 characters), for every caller. */
const reasonOf = (reason: string | null): Effect.Effect<string | null, BadRequest> =>
  reason === null
    ? Effect.succeed(null)
    : Schema.decodeUnknown(DirectoryPausedReason)(reason).pipe(
      Effect.mapError(() =>
        invalid("reason", `must be 1 to ${DIRECTORY_PAUSED_REASON_MAX_LENGTH} characters of text, not blank`)
      )
    )

const lockedFields = (row: LockedConnectionRow): ConnectionFields => ({
  status: row.status,
  tokenCreatedAt: isoOrNull(row.token_created_at),
  tokenExpiresAt: isoOrNull(row.token_expires_at),
  pausedReason: row.paused_reason
})

const viewFields = (view: DirectoryConnection): ConnectionFields => ({
  status: view.status,
  tokenCreatedAt: view.tokenCreatedAt,
  tokenExpiresAt: view.tokenExpiresAt,
  pausedReason: view.pausedReason
})

/**
 * The organization's identity-directory (SCIM) connection
 * (docs/directory-sync.md): connecting it with a bearer token shown once,
 * rotating that token, pausing and resuming the sync, and checking the
 * token of each request the directory sends. Each act locks the
 * connection, writes its audit row in its transaction, and answers the
 * connection as GET /v1/directory-sync shows it. The system (the
 * operator's CLI) acts on any organization; a person only on their own,
 * another being as absent.
 */
export class DirectoryConnections extends Effect.Service<DirectoryConnections>()("@tks/core/DirectoryConnections", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* DirectoryConnectionsRepo
    const reads = yield* AdministrationRepo
    const journal = yield* Journal
    const events = yield* DirectoryEvents

    const reachable = (caller: Caller, orgId: OrganizationId) =>
      caller._tag === "Person" && caller.access.actor.organizationId !== orgId ? Effect.fail(noOrganization()) : Effect.void

    /** The connection as the read shows it, inside the act's transaction (it exists: the act just wrote it). */
    const shown = (orgId: OrganizationId) =>
      Effect.flatMap(reads.directorySync(orgId), (row) =>
        row?.connection === undefined
          ? Effect.dieMessage(`the directory connection of ${orgId} vanished inside its own act`)
          : Effect.succeed(connectionView(row.connection, row.now)))

    /** The connection, locked; NotFound saying which is missing, the organization or its connection. */
    const locked = (orgId: OrganizationId) =>
      Effect.flatMap(repo.lock(orgId), (row) =>
        row !== undefined
          ? Effect.succeed(row)
          : Effect.flatMap(repo.organizationExists(orgId), (exists) => Effect.fail(exists ? noConnection() : noOrganization())))

    /**
     * A new connection, or a DISCONNECTED one connected again: PENDING with a
     * new token (a reconnected one keeps its counters; its old token becomes
     * the replaced one). Undefined when another transaction created the
     * connection in the meantime.
     */
    const connectLocked = (caller: Caller, orgId: OrganizationId, before: LockedConnectionRow | undefined, lifetime: TokenLifetime) =>
      Effect.gen(function*() {
        const token = generateDirectoryToken()
        if (before === undefined) {
          if (!(yield* repo.insert(orgId, hashToken(token), lifetime))) {
            if (!(yield* repo.organizationExists(orgId))) return yield* noOrganization()
            return undefined
          }
        } else {
          yield* repo.replaceToken(orgId, hashToken(token), lifetime, true)
        }
        const connection = yield* shown(orgId)
        yield* journal.record(
          connectionAct(caller, orgId, "directory_connection.connected", before && lockedFields(before), viewFields(connection))
        )
        const issued: DirectoryTokenIssued = { connection, token }
        return issued
      })

    const rotateLocked = (caller: Caller, orgId: OrganizationId, before: LockedConnectionRow, lifetime: TokenLifetime) =>
      Effect.gen(function*() {
        if (before.status === "DISCONNECTED") return yield* disconnected()
        const token = generateDirectoryToken()
        yield* repo.replaceToken(orgId, hashToken(token), lifetime, false)
        const connection = yield* shown(orgId)
        yield* journal.record(connectionAct(caller, orgId, "directory_token.rotated", lockedFields(before), viewFields(connection)))
        const issued: DirectoryTokenIssued = { connection, token }
        return issued
      })

    /**
     * Connects the organization's directory: a new PENDING connection with
     * its token, or a DISCONNECTED one connected again. A connection in any
     * other state is refused (DirectoryAlreadyConnected): its token is
     * rotated instead. Without `expiresInDays` the token never expires.
     */
    const connect = traced("DirectoryConnections.connect")(function*(caller: Caller, orgId: OrganizationId, options: DirectoryTokenOptions) {
      yield* reachable(caller, orgId)
      const lifetime = yield* lifetimeOf(options.expiresInDays, "none")
      return yield* sql.withTransaction(Effect.gen(function*() {
        const before = yield* repo.lock(orgId)
        if (before !== undefined && before.status !== "DISCONNECTED") {
          return yield* new DirectoryAlreadyConnected({
            message: `The organization's directory is connected already (${before.status}); rotate its token instead`
          })
        }
        const issued = yield* connectLocked(caller, orgId, before, lifetime)
        if (issued === undefined) {
          return yield* new DirectoryAlreadyConnected({ message: "The organization's directory was connected meanwhile; rotate its token instead" })
        }
        return issued
      }))
    })

    /**
     * A new token for the connection, shown once: the one it replaces stops
     * authenticating at once (a request still carrying it is refused and
     * recorded as TOKEN_REVOKED). Status, counters and a pause are kept.
     * Without `expiresInDays` the new token lasts as long as the old one was
     * given. A disconnected connection is connected again instead.
     */
    const rotateToken = traced("DirectoryConnections.rotateToken")(
      function*(caller: Caller, orgId: OrganizationId, options: DirectoryTokenOptions) {
        yield* reachable(caller, orgId)
        const lifetime = yield* lifetimeOf(options.expiresInDays, "kept")
        return yield* sql.withTransaction(Effect.flatMap(locked(orgId), (before) => rotateLocked(caller, orgId, before, lifetime)))
      }
    )

    /**
     * POST /v1/directory-sync/token: connects the directory when it has no
     * connection or a DISCONNECTED one, and otherwise rotates its token.
     */
    const issueToken = traced("DirectoryConnections.issueToken")(
      function*(caller: Caller, orgId: OrganizationId, options: DirectoryTokenOptions) {
        yield* reachable(caller, orgId)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* repo.lock(orgId)
          if (before !== undefined && before.status !== "DISCONNECTED") {
            return yield* rotateLocked(caller, orgId, before, yield* lifetimeOf(options.expiresInDays, "kept"))
          }
          const issued = yield* connectLocked(caller, orgId, before, yield* lifetimeOf(options.expiresInDays, "none"))
          if (issued !== undefined) return issued
          // Created by a request that committed while this one inserted: rotate the token it made.
          return yield* rotateLocked(caller, orgId, yield* locked(orgId), yield* lifetimeOf(options.expiresInDays, "kept"))
        }))
      }
    )

    /**
     * Stops the sync: every request of the directory is refused with 403
     * and the reason, until it is resumed. Pausing a paused connection
     * changes nothing and records nothing; a disconnected one is refused.
     */
    const pause = traced("DirectoryConnections.pause")(function*(caller: Caller, orgId: OrganizationId, given: string | null) {
      yield* reachable(caller, orgId)
      const reason = yield* reasonOf(given)
      return yield* sql.withTransaction(Effect.gen(function*() {
        const before = yield* locked(orgId)
        if (before.status === "DISCONNECTED") return yield* disconnected()
        if (before.status === "PAUSED") return yield* shown(orgId)
        yield* repo.pause(orgId, reason)
        const connection = yield* shown(orgId)
        yield* journal.record(connectionAct(caller, orgId, "directory_connection.paused", lockedFields(before), viewFields(connection)))
        return connection
      }))
    })

    /**
     * Lets the directory's requests in again: ACTIVE, or PENDING when the
     * connection was never used (resumedStatus); the pause's time and reason
     * are cleared. Resuming a connection that is not paused changes nothing
     * and records nothing; a disconnected one is refused.
     */
    const resume = traced("DirectoryConnections.resume")(function*(caller: Caller, orgId: OrganizationId) {
      yield* reachable(caller, orgId)
      return yield* sql.withTransaction(Effect.gen(function*() {
        const before = yield* locked(orgId)
        if (before.status === "DISCONNECTED") return yield* disconnected()
        if (before.status !== "PAUSED") return yield* shown(orgId)
        yield* repo.resume(orgId, resumedStatus({ tokenLastUsedAt: before.token_last_used_at, lastSyncAt: before.last_sync_at }))
        const connection = yield* shown(orgId)
        yield* journal.record(connectionAct(caller, orgId, "directory_connection.resumed", lockedFields(before), viewFields(connection)))
        return connection
      }))
    })

    /**
     * The organization a directory request's bearer token (the credential
     * alone, without the `Bearer` scheme) belongs to, or
     * DirectoryAuthRejected (authRefusal). A refusal that names the
     * organization (a replaced, revoked or expired token, a paused or
     * disconnected connection) is recorded as an AUTH REJECTED directory
     * event with its reason before it is answered.
     */
    const authenticate = traced("DirectoryConnections.authenticate")(function*(bearer: string | undefined) {
      if (bearer === undefined || !looksLikeDirectoryToken(bearer)) return yield* unknownToken()
      const tokenHash = hashToken(bearer)
      const match = yield* repo.findByToken(tokenHash)
      if (match === undefined) return yield* unknownToken()
      const refusal = authRefusal({
        current: match.current,
        revoked: match.revoked,
        expired: match.expired,
        expiresAt: match.token_expires_at,
        status: match.status,
        pausedReason: match.paused_reason
      })
      if (refusal !== null) {
        yield* events.record({ orgId: match.org_id, operation: "AUTH", outcome: "REJECTED", reason: refusal.reason, message: refusal.detail })
        return yield* new DirectoryAuthRejected(refusal)
      }
      // The last use is written at most once a minute: a directory's sync
      // cycle sends a request per person (thousands in a burst), and one
      // more write each would double the cost of every request for a date
      // that the admin reads to the minute at best. The first use is always
      // written, as it makes a PENDING connection ACTIVE.
      if (match.status !== "PENDING" && !match.use_stale) {
        const accepted: DirectoryCaller = { orgId: match.org_id, status: match.status }
        return accepted
      }
      // Nothing written when a rotation or pause committed between the two statements: the
      // request was let in by the state it read, and the next one meets the new state.
      const status = yield* repo.recordUse(match.org_id, tokenHash)
      const accepted: DirectoryCaller = { orgId: match.org_id, status: status ?? match.status }
      return accepted
    })

    return { connect, rotateToken, issueToken, pause, resume, authenticate } as const
  }),
  dependencies: [DirectoryConnectionsRepo.Default, AdministrationRepo.Default, Journal.Default, DirectoryEvents.Default]
}) {}
