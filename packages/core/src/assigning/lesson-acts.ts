import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { Journal } from "../journal/journal.js"
import { NotificationOutbox } from "../notifications/outbox.js"
import { QuizPreparation } from "../quizzes/preparation.js"
import { EnrollmentsRepo } from "./enrollments-repo.js"
import { ObligationsRepo } from "./obligations-repo.js"
import { AssigningPeopleRepo } from "./people-repo.js"

/**
 * What the acts that enroll people in a lesson share (assignments and
 * retraining assignments): the repositories, the outbox, the journal, and enrolling with
 * the quiz prepared for each new enrollment in the same transaction
 * (a quiz is prepared when a person is enrolled).
 */
export const lessonActs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const people = yield* AssigningPeopleRepo
  const obligations = yield* ObligationsRepo
  const outbox = yield* NotificationOutbox
  const enrollments = yield* EnrollmentsRepo
  const quizzes = yield* QuizPreparation
  const journal = yield* Journal

  /** Enrolls those of `userIds` without the lesson in progress and prepares their quizzes; returns the new enrollments. */
  const enrollWithQuizzes = (input: {
    readonly orgId: OrganizationId
    readonly lessonId: string
    readonly userIds: ReadonlyArray<string>
    readonly assignedBy: string
  }) =>
    Effect.tap(enrollments.enroll(input), (enrolled) => quizzes.prepare({ orgId: input.orgId, enrollmentIds: enrolled.map((row) => row.id) }))

  return { sql, people, obligations, outbox, journal, enrollWithQuizzes } as const
})
