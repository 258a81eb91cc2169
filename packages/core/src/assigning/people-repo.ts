import { SqlClient, type Statement } from "@effect/sql"
import { Effect } from "effect"
import type { Access } from "@tks/domain/policy"
import { lessonReadable, readerOf, userRowReader } from "../knowledge/access.js"
import { withinReach } from "../common/reach.js"

export interface LessonRow {
  readonly id: string
  readonly title: string
  readonly status: "open" | "closed"
  readonly personal_for_user_id: string | null
  /** The database's time of this transaction: when the act happened. */
  readonly now: Date
}

/** A person named in a request, as the checks need them. */
export interface NamedPersonRow {
  readonly named_id: string
  readonly known: boolean
  readonly in_reach: boolean
  readonly active: boolean
  /** Active and able to read the lesson (false without a lesson). */
  readonly can_take: boolean
}

/** A person an assignment reaches, with what they already have of the lesson. */
interface TargetRow {
  readonly user_id: string
  readonly in_progress: boolean
  readonly completed: boolean
}

export type Audience =
  | { readonly _tag: "everyone" }
  | { readonly _tag: "teams"; readonly teamIds: ReadonlyArray<string> }
  | { readonly _tag: "users"; readonly userIds: ReadonlyArray<string> }

/** The `users` row `alias` is in `audience` (any status; callers add theirs). */
export const inAudience = (sql: SqlClient.SqlClient, audience: Audience, alias: string): Statement.Fragment => {
  const user = sql(alias)
  switch (audience._tag) {
    case "everyone":
      return sql`TRUE`
    case "teams":
      return sql`EXISTS (SELECT 1 FROM team_members tm WHERE tm.org_id = ${user}.org_id AND tm.user_id = ${user}.id AND tm.team_id = ANY(${[...audience.teamIds]}::text[]))`
    case "users":
      return sql`${user}.id = ANY(${[...audience.userIds]}::text[])`
  }
}

/** The reads the assigning acts check a request against, inside their transaction. */
export class AssigningPeopleRepo extends Effect.Service<AssigningPeopleRepo>()("@tks/core/AssigningPeopleRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The lesson, if the caller can read it, locked against the other
     * assigning acts on it until the transaction ends (FOR NO KEY UPDATE:
     * enrollments' foreign-key checks still pass). Serialising the acts on
     * one lesson makes "who already has it" exact when the same lesson is
     * assigned many times at once; the unique indexes back it up.
     */
    const lockLesson = (access: Access, lessonId: string) =>
      sql<LessonRow>`
        SELECT l.id, l.title, l.status, l.personal_for_user_id, now() AS now FROM lessons l
        WHERE l.org_id = ${access.actor.organizationId} AND l.id = ${lessonId} AND ${lessonReadable(sql, readerOf(access.actor), "l")}
        FOR NO KEY UPDATE`.pipe(Effect.map((rows) => rows[0]))

    /** Each named id: a person of the organization? within the caller's reach? active? able to take the lesson? */
    const named = (access: Access, userIds: ReadonlyArray<string>, lessonId: string | null) =>
      sql<NamedPersonRow>`
        SELECT n.id AS named_id, u.id IS NOT NULL AS known,
          COALESCE(u.id IS NOT NULL AND ${withinReach(sql, access, "u")}, false) AS in_reach,
          COALESCE(u.status = 'ACTIVE', false) AS active,
          COALESCE(u.status = 'ACTIVE' AND l.id IS NOT NULL AND ${lessonReadable(sql, userRowReader("u"), "l")}, false) AS can_take
        FROM unnest(${[...userIds]}::text[]) WITH ORDINALITY AS n(id, position)
        LEFT JOIN users u ON u.org_id = ${access.actor.organizationId} AND u.id = n.id
        LEFT JOIN lessons l ON l.org_id = ${access.actor.organizationId} AND l.id = ${lessonId ?? ""}
        ORDER BY n.position`

    /** Which of `teamIds` are teams of the organization. */
    const knownTeams = (orgId: string, teamIds: ReadonlyArray<string>) =>
      sql<{ id: string }>`SELECT id FROM teams WHERE org_id = ${orgId} AND id = ANY(${[...teamIds]}::text[])`.pipe(
        Effect.map((rows) => new Set(rows.map((row) => row.id)))
      )

    /**
     * Everyone in `audience` who can take the lesson (active and able to read
     * it), with whether they have it in progress or completed. One statement
     * however many people.
     */
    const targets = (orgId: string, lessonId: string, audience: Audience) =>
      sql<TargetRow>`
        SELECT u.id AS user_id, COALESCE(had.in_progress, false) AS in_progress, COALESCE(had.completed, false) AS completed
        FROM lessons l
        JOIN users u ON u.org_id = l.org_id
        LEFT JOIN LATERAL (
          SELECT bool_or(e.status = 'in_progress') AS in_progress, bool_or(e.status = 'completed') AS completed
          FROM enrollments e WHERE e.org_id = u.org_id AND e.lesson_id = l.id AND e.user_id = u.id
        ) had ON TRUE
        WHERE l.org_id = ${orgId} AND l.id = ${lessonId} AND u.status = 'ACTIVE' AND ${inAudience(sql, audience, "u")}
          AND ${lessonReadable(sql, userRowReader("u"), "l")}
        ORDER BY u.id`

    /** A lesson's title (an obligation's lesson, to tell its person), whoever can read it. */
    const lessonTitle = (orgId: string, lessonId: string) =>
      sql<{ title: string }>`SELECT title FROM lessons WHERE org_id = ${orgId} AND id = ${lessonId}`.pipe(
        Effect.map((rows) => rows[0]?.title ?? "")
      )

    return { lockLesson, named, knownTeams, targets, lessonTitle } as const
  })
}) {}
