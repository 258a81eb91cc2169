import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { QuestionGenerator } from "@tks/adapters/questions/port"
import { popQuizQuestions } from "@tks/domain/pop-quiz-send"
import { failJobOnSqlError } from "../common/database-failures.js"
import { JobFailure, type JobHandler } from "../jobs/handler.js"
import { NotificationOutbox } from "../notifications/outbox.js"
import { generateQuestions } from "./generate.js"
import { PopQuizMaterial } from "./material-repo.js"
import { PopQuizRecipientsRepo } from "./recipients-repo.js"

/**
 * The "pop-quiz.prepare" job (subject: a pop_quiz_recipients id), run by the
 * job workers with their bounded concurrency, retries with backoff and
 * leases: writes that person's own questions on the quiz's content (the
 * generator seeded by the recipient, so people get different questions),
 * then, in ONE transaction, marks them READY and tells the person by email
 * and text ("each person is told ... when theirs are ready").
 *
 * Exactly once per recipient: the READY write is conditional on the row not
 * being READY yet, and the person is told only when this run made it so; a
 * run again after a takeover, or alongside one, finds it READY and tells
 * nobody. A recipient gone, or READY already, is nothing to do. When the job
 * fails for good, the recipient's questions are FAILED with the reason
 * (starting the quiz then asks for them again, see learner.ts).
 */
export const popQuizPreparationJob = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const recipients = yield* PopQuizRecipientsRepo
  const material = yield* PopQuizMaterial
  const generator = yield* QuestionGenerator
  const outbox = yield* NotificationOutbox

  const run = (orgId: Parameters<typeof recipients.byId>[0], recipientId: string) =>
    Effect.gen(function*() {
      const recipient = yield* recipients.byId(orgId, recipientId)
      if (recipient === undefined || recipient.generation_status === "READY") return
      const found = yield* material.of(orgId, recipient.content_id)
      if (found === undefined) return
      const questions = yield* generateQuestions(generator, found, {
        difficulty: recipient.difficulty,
        count: popQuizQuestions,
        seed: recipientId
      }).pipe(Effect.mapError((error) => new JobFailure({ reason: `Question generation failed: ${error.reason}` })))
      yield* sql.withTransaction(Effect.gen(function*() {
        if (!(yield* recipients.markReady(orgId, recipientId, questions, generator.name))) return
        yield* outbox.tell({
          orgId,
          userIds: [recipient.user_id],
          notice: { _tag: "PopQuizReady", popQuizId: recipient.quiz_id, title: recipient.title, dueDate: recipient.due_date.toISOString() }
        })
      }))
    }).pipe(failJobOnSqlError)

  const handler: JobHandler<never> = {
    kind: "pop-quiz.prepare",
    annotations: (job) => ({ popQuizRecipientId: job.subjectId }),
    run: (job) => run(job.orgId, job.subjectId),
    onFailed: (job, reason) => recipients.markFailed(job.orgId, job.subjectId, reason)
  }
  return handler
}).pipe(Effect.provide(Layer.mergeAll(PopQuizRecipientsRepo.Default, PopQuizMaterial.Default, NotificationOutbox.Default)))
