import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { newId } from "../common/ids.js"

/** An enrollment just written: who, and its id. */
export interface NewEnrollmentRow {
  readonly id: string
  readonly user_id: string
}

/** Enrollments as the assigning acts write them: set-based, in the caller's transaction. */
export class EnrollmentsRepo extends Effect.Service<EnrollmentsRepo>()("@tks/core/EnrollmentsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Enrolls `userIds` in the lesson. Someone who has it in progress already
     * is skipped by the partial unique index `enrollments_open` (ON CONFLICT
     * DO NOTHING), so any number of concurrent calls leave one enrollment in
     * progress per person. Enrolled at the transaction's time (now()), like
     * every other row the act writes. Returns the enrollments this call wrote.
     */
    const enroll = (input: {
      readonly orgId: string
      readonly lessonId: string
      readonly userIds: ReadonlyArray<string>
      readonly assignedBy: string | null
    }) =>
      input.userIds.length === 0 ? Effect.succeed([] as ReadonlyArray<NewEnrollmentRow>) : sql<NewEnrollmentRow>`
        INSERT INTO enrollments (org_id, id, user_id, lesson_id, assigned_by)
        SELECT ${input.orgId}, n.id, n.user_id, ${input.lessonId}, ${input.assignedBy}
        FROM unnest(${input.userIds.map(() => newId("enrollment"))}::text[], ${[...input.userIds]}::text[]) AS n(id, user_id)
        ORDER BY n.user_id
        ON CONFLICT (org_id, user_id, lesson_id) WHERE status = 'in_progress' DO NOTHING
        RETURNING id, user_id`

    /**
     * Removes the people's enrollments in progress in the lesson with their
     * progress (the quiz and its attempts go with them, ON DELETE CASCADE).
     * Completed enrollments stay. A quiz preparation still queued for a
     * removed enrollment finds it gone and has nothing to do. Returns whose
     * were removed.
     */
    const removeInProgress = (orgId: string, lessonId: string, userIds: ReadonlyArray<string>) =>
      sql<NewEnrollmentRow>`
        DELETE FROM enrollments
        WHERE org_id = ${orgId} AND lesson_id = ${lessonId} AND status = 'in_progress' AND user_id = ANY(${[...userIds]}::text[])
        RETURNING id, user_id`

    /** Which of `userIds` have the lesson in progress. */
    const inProgress = (orgId: string, lessonId: string, userIds: ReadonlyArray<string>) =>
      sql<{ user_id: string }>`
        SELECT user_id FROM enrollments
        WHERE org_id = ${orgId} AND lesson_id = ${lessonId} AND status = 'in_progress' AND user_id = ANY(${[...userIds]}::text[])`.pipe(
        Effect.map((rows) => new Set(rows.map((row) => row.user_id)))
      )

    return { enroll, removeInProgress, inProgress } as const
  })
}) {}
