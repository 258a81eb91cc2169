import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { AccessTokenId, OrganizationId, TeamId, UserId } from "@tks/domain/ids"
import { type CountedColumns, RateLimitRepo } from "../rate-limits/repo.js"
import type { RateLimitRule } from "@tks/domain/rate-limit-rules"
import { compiledOnce } from "../common/compiled-once.js"
import type { MemberStatus, OrgRole, Scope, TeamRole } from "@tks/domain/roles"
import { PERSON_SUBJECT_PREFIX } from "@tks/domain/actor"

export interface TokenOwnerRow {
  readonly token_id: AccessTokenId
  readonly org_id: OrganizationId
  readonly user_id: UserId
  readonly org_role: OrgRole
  readonly scopes: ReadonlyArray<Scope>
  readonly teams: ReadonlyArray<{ readonly teamId: TeamId; readonly role: TeamRole }>
  readonly last_used_stale: boolean
}

/** A person found by their email, as they are now, with the request counted against them (see `findActivePersonCounted`). */
export interface SignedInPersonRow {
  readonly user_id: UserId
  readonly org_role: OrgRole
  readonly teams: ReadonlyArray<{ readonly teamId: TeamId; readonly role: TeamRole }>
}

/** A token just revoked: whose it was, for the record of the act. */
export interface RevokedTokenRow {
  readonly id: AccessTokenId
  readonly org_id: OrganizationId
  readonly user_id: UserId
  readonly name: string | null
}

export interface PersonRow {
  readonly org_role: OrgRole
  readonly status: MemberStatus
  readonly teams: ReadonlyArray<{ readonly teamId: TeamId; readonly role: TeamRole }>
}

export class AuthRepo extends Effect.Service<AuthRepo>()("@tks/core/AuthRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rateLimits = yield* RateLimitRepo

    /** A person's team memberships as `[{teamId, role}]`, for the permission checks. */
    const teamsOf = (orgColumn: string, userColumn: string) =>
      sql`COALESCE((SELECT json_agg(json_build_object('teamId', tm.team_id, 'role', tm.role))
                      FROM team_members tm WHERE tm.org_id = ${sql(orgColumn)} AND tm.user_id = ${sql(userColumn)}), '[]')`

    /**
     * The token's owner as they are now: one round trip that also reads the
     * person's team memberships and counts the request against `perToken`
     * (the token's default limit) in the same statement, so the count is
     * exact across processes at no extra round trip. Only live tokens of
     * active people match, and only they are counted.
     */
    const liveToken = (tokenHash: string) =>
      sql<TokenOwnerRow>`SELECT t.id AS token_id, t.org_id, t.user_id, u.org_role, t.scopes,
            (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS last_used_stale,
            ${teamsOf("t.org_id", "t.user_id")} AS teams
          FROM access_tokens t
          JOIN users u ON u.org_id = t.org_id AND u.id = t.user_id
          WHERE t.token_hash = ${tokenHash}
            AND t.revoked_at IS NULL
            AND (t.expires_at IS NULL OR t.expires_at > now())
            AND u.status = 'ACTIVE'`

    /**
     * Also records the token's use, in the same statement: last_used_at is
     * kept to the minute, so a busy token is not a write per request.
     */
    const liveTokenCounted = (tokenHash: string, perToken: RateLimitRule) =>
      sql<TokenOwnerRow & CountedColumns>`
        WITH token AS (${liveToken(tokenHash)}), counted AS (
          ${rateLimits.countIn(sql`SELECT org_id, token_id AS subject FROM token`, perToken.name, perToken.windows, 1)}
        ), touched AS (
          UPDATE access_tokens a SET last_used_at = now()
          FROM token WHERE token.last_used_stale AND a.org_id = token.org_id AND a.id = token.token_id
        )
        SELECT token.*, counted.hits, counted.refused, counted.now_ms FROM token CROSS JOIN counted`

    // Every authenticated request runs these: their text is compiled once (per rule).
    const countedFor = new WeakMap<RateLimitRule, (tokenHash: string) => Effect.Effect<ReadonlyArray<TokenOwnerRow & CountedColumns>, SqlError>>()
    const uncounted = compiledOnce(sql, liveToken)

    const findLiveToken = (tokenHash: string, perToken: RateLimitRule) => {
      let counted = countedFor.get(perToken)
      if (counted === undefined) {
        counted = compiledOnce(sql, (hash) => liveTokenCounted(hash, perToken))
        countedFor.set(perToken, counted)
      }
      return Effect.map(counted(tokenHash), (rows) => rows[0])
    }

    /** The token's owner as they are now, counting nothing: for a request already counted. */
    const findLiveTokenUncounted = (tokenHash: string) => Effect.map(uncounted(tokenHash), (rows) => rows[0])

    const insert = (row: {
      readonly orgId: OrganizationId
      readonly id: AccessTokenId
      readonly userId: UserId
      readonly tokenHash: string
      readonly name: string | null
      readonly scopes: ReadonlyArray<Scope>
      readonly expiresAt: Date | null
    }) =>
      sql`INSERT INTO access_tokens (org_id, id, user_id, token_hash, name, scopes, expires_at)
          VALUES (${row.orgId}, ${row.id}, ${row.userId}, ${row.tokenHash}, ${row.name}, ${row.scopes}, ${row.expiresAt})`.pipe(
        Effect.asVoid
      )

    /**
     * Revokes a live token; `within` limits it to one organization and, when
     * given, to one holder. Answers the token revoked, if one was.
     */
    const revoke = (tokenId: AccessTokenId, within: { readonly orgId: OrganizationId; readonly userId: UserId | null } | null) =>
      sql<RevokedTokenRow>`
        UPDATE access_tokens SET revoked_at = now()
        WHERE id = ${tokenId} AND revoked_at IS NULL
          ${within === null ? sql`` : sql`AND org_id = ${within.orgId}`}
          ${within === null || within.userId === null ? sql`` : sql`AND user_id = ${within.userId}`}
        RETURNING id, org_id, user_id, name`.pipe(Effect.map((rows) => rows[0]))

    const findPerson = (orgId: OrganizationId, userId: UserId) =>
      sql<PersonRow>`
        SELECT u.org_role, u.status, ${teamsOf("u.org_id", "u.id")} AS teams
        FROM users u WHERE u.org_id = ${orgId} AND u.id = ${userId}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * The active person of `orgId` whose email is `email` (any case), with
     * the request counted against `perToken` for that person (subject
     * `person:<id>`: an identity provider's token has no row of its own), in
     * one statement as `findLiveToken` does. Nobody, or someone who has
     * left, matches nothing and counts nothing.
     */
    const findActivePersonCounted = (orgId: OrganizationId, email: string, perToken: RateLimitRule) =>
      sql<SignedInPersonRow & CountedColumns>`
        WITH person AS (
          SELECT u.org_id, u.id AS user_id, u.org_role, ${teamsOf("u.org_id", "u.id")} AS teams
          FROM users u
          WHERE u.org_id = ${orgId} AND lower(u.email) = lower(${email}) AND u.status = 'ACTIVE'
        ), counted AS (
          ${rateLimits.countIn(sql`SELECT org_id, ${PERSON_SUBJECT_PREFIX} || user_id AS subject FROM person`, perToken.name, perToken.windows, 1)}
        )
        SELECT person.user_id, person.org_role, person.teams, counted.hits, counted.refused, counted.now_ms
        FROM person CROSS JOIN counted`.pipe(Effect.map((rows) => rows[0]))

    return { findLiveToken, findLiveTokenUncounted, insert, revoke, findPerson, findActivePersonCounted } as const
  }),
  dependencies: [RateLimitRepo.Default]
}) {}
