import { expect } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import type { ImportResult, OrgFixtureInput } from "@tks/core/org-import/schema"
import { assigners, elsewhere } from "@tks/core/testing/assigners"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { storedAuditNaming, storedEventsNaming } from "./journal.js"
import { once } from "./once.js"
import { expectError } from "./responses.js"
import { importFixture, raw, type RawResponse } from "./server.js"

/**
 * The callers and data of the assigning contract tests: the people of
 * @tks/core/testing/assigners (tokens with training:assign for the
 * organization and team admins), elsewhere's admin `otto`, and the bad
 * tokens of the usual caller matrix. Each route allows a token 30 calls a
 * minute, so a test that calls one route often takes `freshToken`s.
 */
export interface Assigners {
  readonly result: ImportResult
  readonly elsewhere: ImportResult
  readonly orgId: string
  /** The imported token of a person (`otto`: elsewhere's admin). */
  readonly token: (key: string) => string
  /** A new training:assign token for a person who may hold one (its own rate-limit counts). */
  readonly freshToken: (key: string) => Effect.Effect<string>
  readonly userId: (key: string) => string
  readonly teamId: (key: string) => string
  readonly lessonId: (key: string) => string
  readonly topicId: (key: string) => string
  readonly itemId: (key: string) => string
  readonly contentId: (key: string) => string
  readonly popQuizId: (key: string) => string
  readonly badTokens: Readonly<Record<"none" | "invalid" | "expired" | "revoked", string | undefined>>
}

const known = (record: Readonly<Record<string, string>>, key: string, what: string) => {
  const value = record[key]
  if (value === undefined) throw new Error(`The fixture has no ${what} ${key}`)
  return value
}

/**
 * Imports `primary` (with a person `revoked`, whose token is revoked here)
 * and `secondary` (with an admin `otto`): the callers of an act's tests.
 */
export const setUpCallers = (primary: OrgFixtureInput, secondary: OrgFixtureInput) => Effect.gen(function*() {
  const result = yield* importFixture(primary)
  const other = yield* importFixture(secondary)
  const authenticator = yield* Authenticator
  yield* authenticator.revoke(Caller.system("test"), AccessTokenId.make(known(result.tokenIds, "revoked", "token of"))).pipe(Effect.orDie)
  const token = (key: string) => (key === "otto" ? known(other.tokens, key, "token of") : known(result.tokens, key, "token of"))
  const value: Assigners = {
    result,
    elsewhere: other,
    orgId: result.organizationId,
    token,
    freshToken: (key) => {
      const [org, ids] = key === "otto" ? [other, other.ids.people] : [result, result.ids.people]
      return authenticator.issue(Caller.system("test"), {
        organizationId: OrganizationId.make(org.organizationId),
        userId: UserId.make(known(ids, key, "person")),
        scopes: ["training:assign"]
      }).pipe(Effect.map((issued) => issued.token), Effect.orDie)
    },
    userId: (key) => known(result.ids.people, key, "person"),
    teamId: (key) => known(result.ids.teams, key, "team"),
    lessonId: (key) => known(result.ids.lessons, key, "lesson"),
    topicId: (key) => known(result.ids.topics, key, "topic"),
    itemId: (key) => known(result.ids.items, key, "item"),
    contentId: (key) => known(result.ids.content, key, "content"),
    popQuizId: (key) => known(result.ids.popQuizzes, key, "pop quiz"),
    badTokens: { none: undefined, invalid: "tks_this-token-was-never-issued", expired: token("expired"), revoked: token("revoked") }
  }
  return value
})

/** The assigners organization, imported once per test file. */
export const assignersOnce = once(setUpCallers(assigners, elsewhere))

/** A JSON request as the holder of `token`. */
export const send = (method: "POST" | "PUT", path: string, token: string | undefined, body: unknown) =>
  raw(method, path, { token, body: JSON.stringify(body) })

export const post = (path: string, token: string | undefined, body: unknown) => send("POST", path, token, body)

const sqlOf = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.orDie)

export interface TrainingState {
  /** `${userId} ${status}` of every enrollment in the lesson, sorted. */
  readonly enrollments: ReadonlyArray<string>
  /** `${userId} ${status} ${required} ${dueDate}` of every obligation on the lesson, sorted. */
  readonly obligations: ReadonlyArray<string>
  /** Quizzes prepared and quiz.prepare jobs for the lesson's enrollments. */
  readonly quizzes: number
  readonly quizJobs: number
  /** `${userId} ${channel} ${kind}` of every notification about the lesson (whatever its delivery status), sorted. */
  readonly told: ReadonlyArray<string>
  /** The actions of the audit rows naming the lesson, and the types of the events naming it, sorted. */
  readonly audit: ReadonlyArray<string>
  readonly events: ReadonlyArray<string>
}

/** What a lesson's training looks like in the database: to show that a refused call changed nothing. */
export const trainingState = (lessonId: string) =>
  sqlOf((sql) =>
    Effect.gen(function*() {
      const enrollments = yield* sql<{ line: string }>`
        SELECT user_id || ' ' || status AS line FROM enrollments WHERE lesson_id = ${lessonId} ORDER BY 1`
      const obligations = yield* sql<{ line: string }>`
        SELECT user_id || ' ' || status || ' ' || required || ' ' || COALESCE(to_char(due_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), '-') AS line
        FROM obligations WHERE item_type = 'lesson' AND item_id = ${lessonId} ORDER BY 1`
      const [counts] = yield* sql<{ quizzes: number; jobs: number }>`
        SELECT (SELECT count(*)::int FROM enrollment_quizzes q JOIN enrollments e ON e.org_id = q.org_id AND e.id = q.enrollment_id
                WHERE e.lesson_id = ${lessonId}) AS quizzes,
          (SELECT count(*)::int FROM jobs j JOIN enrollments e ON e.org_id = j.org_id AND e.id = j.subject_id
                WHERE j.kind = 'quiz.prepare' AND e.lesson_id = ${lessonId}) AS jobs`
      const told = yield* sql<{ line: string }>`
        SELECT user_id || ' ' || channel || ' ' || kind AS line FROM notifications WHERE notice ->> 'lessonId' = ${lessonId} ORDER BY 1`
      const state: TrainingState = {
        enrollments: enrollments.map((row) => row.line),
        obligations: obligations.map((row) => row.line),
        quizzes: counts!.quizzes,
        quizJobs: counts!.jobs,
        told: told.map((row) => row.line),
        audit: yield* Effect.provideService(storedAuditNaming(lessonId), SqlClient.SqlClient, sql),
        events: yield* Effect.provideService(storedEventsNaming(lessonId), SqlClient.SqlClient, sql)
      }
      return state
    })
  )

/** The call is refused with `status` and `code`, and the lesson's training is as it was before (nothing changed for anyone, nothing recorded). */
export const expectRefused = <R>(lessonId: string, call: Effect.Effect<RawResponse, never, R>, status: number, code: string, label: string) =>
  Effect.gen(function*() {
    const before = yield* trainingState(lessonId)
    const response = yield* call
    expectError(response, status, code, label)
    expect(yield* trainingState(lessonId), label).toEqual(before)
    return response
  })

/** An obligation row as stored. */
export const storedObligation = (id: string) =>
  sqlOf((sql) =>
    sql<{
      status: string
      required: boolean
      due_date: Date | null
      due_date_overridden: boolean
      needs_review: boolean
      reason: string | null
      end_reason: string | null
      kind: string
      retraining_resets_clock: boolean | null
    }>`SELECT status, required, due_date, due_date_overridden, needs_review, reason, end_reason, kind, retraining_resets_clock
      FROM obligations WHERE id = ${id}`.pipe(Effect.map((rows) => rows[0]))
  )

/** Reads from the test database. */
export const query = <A>(run: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => sqlOf(run)

/** Runs a statement against the test database (to put a record in a state no endpoint makes). */
export const execute = (run: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) => sqlOf(run).pipe(Effect.asVoid)
