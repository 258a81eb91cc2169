import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import type { ImportResult } from "@tks/core/org-import/schema"
import { contributors, elsewhere } from "@tks/core/testing/contributors"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { once } from "./once.js"
import { importFixture, raw } from "./server.js"

/**
 * The callers of the content-adding and review-lane contract tests: the
 * people of @tks/core/testing/contributors (tokens with content:write), the
 * admin of `elsewhere`, and the bad tokens of the usual caller matrix.
 */
export interface Contributors {
  readonly result: ImportResult
  readonly elsewhere: ImportResult
  /** A token by person key (`otto` is elsewhere's admin), plus `none` and `invalid`. */
  readonly token: (key: string) => string
  readonly userId: (key: string) => string
  readonly teamId: (key: string) => string
  readonly badTokens: Readonly<Record<"none" | "invalid" | "expired" | "revoked", string | undefined>>
  /** A second content:write token for the same person. */
  readonly secondToken: (key: string) => Effect.Effect<string>
}

const known = (record: Readonly<Record<string, string>>, key: string, what: string) => {
  const value = record[key]
  if (value === undefined) throw new Error(`The contributors fixture has no ${what} ${key}`)
  return value
}

const setUp = Effect.gen(function*() {
  const result = yield* importFixture(contributors)
  const other = yield* importFixture(elsewhere)
  const authenticator = yield* Authenticator
  yield* authenticator.revoke(Caller.system("test"), AccessTokenId.make(known(result.tokenIds, "revoked", "token of"))).pipe(Effect.orDie)
  const token = (key: string) => (key === "otto" ? known(other.tokens, key, "token of") : known(result.tokens, key, "token of"))
  const value: Contributors = {
    result,
    elsewhere: other,
    token,
    userId: (key) => known(result.ids.people, key, "person"),
    teamId: (key) => known(result.ids.teams, key, "team"),
    badTokens: { none: undefined, invalid: "tks_this-token-was-never-issued", expired: token("expired"), revoked: token("revoked") },
    secondToken: (key) =>
      authenticator.issue(Caller.system("test"), {
        organizationId: OrganizationId.make(result.organizationId),
        userId: UserId.make(known(result.ids.people, key, "person")),
        scopes: ["content:write"]
      }).pipe(Effect.map((issued) => issued.token), Effect.orDie)
  }
  return value
})

/** The contributors organization, imported once per test file (each file has its own database). */
export const contributorsOnce = once(setUp)

/** POST a JSON body as the holder of `token`. */
export const post = (path: string, token: string | undefined, body: unknown) =>
  raw("POST", path, { token, body: JSON.stringify(body) })

/** Row counts of the organization's content, review requests and jobs (to show that nothing was created). */
export const intakeCounts = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ content: number; reviews: number; jobs: number; teams: number }>`
      SELECT (SELECT count(*)::int FROM content WHERE org_id = ${orgId}) AS content,
        (SELECT count(*)::int FROM content_review_requests WHERE org_id = ${orgId}) AS reviews,
        (SELECT count(*)::int FROM jobs WHERE org_id = ${orgId}) AS jobs,
        (SELECT count(*)::int FROM content_teams WHERE org_id = ${orgId}) AS teams`
    return row!
  }).pipe(Effect.orDie)

/** A content record as stored, with its teams. */
export const storedContent = (contentId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ status: string; visibility: string; title: string; title_final: boolean; type: string; source_url: string | null }>`
      SELECT status, visibility, title, title_final, type, source_url FROM content WHERE id = ${contentId}`
    const teams = yield* sql<{ team_id: string }>`SELECT team_id FROM content_teams WHERE content_id = ${contentId} ORDER BY team_id`
    const jobs = yield* sql<{ id: string }>`SELECT id FROM jobs WHERE subject_id = ${contentId}`
    return { ...row!, teamIds: teams.map((team) => team.team_id), jobs: jobs.length }
  }).pipe(Effect.orDie)

/** See core's: a burst that fills a per-minute window starts early enough in a minute not to straddle two. */
export const clearOfMinuteEnd = Effect.promise(() => {
  const left = 60_000 - (Date.now() % 60_000)
  return new Promise<void>((resolve) => setTimeout(resolve, left < 8_000 ? left + 200 : 0))
})
