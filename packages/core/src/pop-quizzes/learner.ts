import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Caller } from "@tks/domain/caller"
import { BadRequest, NotFound } from "@tks/domain/errors"
import { OrganizationId, type PopQuizId } from "@tks/domain/ids"
import { LearningCode, type QuizAnswers } from "@tks/domain/learning"
import type { Access } from "@tks/domain/policy"
import { type PopQuizAttempt, PopQuizLearnerCode, type PopQuizOutcome } from "@tks/domain/pop-quiz-learner"
import { answersProblem, scoreQuiz } from "@tks/domain/quiz"
import { JobsRepo } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { iso, isoOrNull } from "../common/time.js"
import { PopQuizRecipientsRepo } from "./recipients-repo.js"
import { traced } from "../common/traced.js"

const noSuchPopQuiz = () => new NotFound({ message: "No such pop quiz" })

const completedAlready = () =>
  new BadRequest({ code: PopQuizLearnerCode.completed, message: "You have answered this pop quiz already; it is answered once" })

/** Why a quiz whose questions are not READY cannot start; a FAILED one has been asked for again. */
const notReady = (retried: boolean) =>
  new BadRequest({
    code: PopQuizLearnerCode.notReady,
    message: retried
      ? "Writing your questions failed; they are being written again. You will be told by email and text when they are ready."
      : "Your questions are still being written. You will be told by email and text when they are ready."
  })

/**
 * A recipient's own acts on a pop quiz sent to them (`policies.learner.*`,
 * reach self): a quiz not sent to the caller is 404 as if absent.
 *
 * - start: not_started -> STARTED once their questions are READY, answering
 *   the questions without their answers; starting again while STARTED
 *   answers the same questions. Questions not written yet: 400
 *   POP_QUIZ_NOT_READY (a FAILED preparation is queued again); answered
 *   already: 400 POP_QUIZ_COMPLETED.
 * - answer: STARTED -> COMPLETED, once: the answers scored (one point per
 *   correct answer, unanswered questions score 0), kept with the score, and
 *   answered with the right answers. Not started: 400 POP_QUIZ_NOT_STARTED;
 *   answered already: 400 POP_QUIZ_COMPLETED; a number that names no
 *   question, or one twice: 400 INVALID_ANSWERS. A due date that passed does
 *   not close the quiz: a late answer still counts.
 */
export class PopQuizLearner extends Effect.Service<PopQuizLearner>()("@tks/core/PopQuizLearner", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const recipients = yield* PopQuizRecipientsRepo
    const jobs = yield* JobsRepo
    const journal = yield* Journal

    const mine = (access: Access, quizId: PopQuizId) =>
      recipients.ofPerson(OrganizationId.make(access.actor.organizationId), quizId, access.actor.userId).pipe(
        Effect.flatMap((row) => (row === undefined ? Effect.fail(noSuchPopQuiz()) : Effect.succeed(row)))
      )

    const start = traced("PopQuizLearner.start")(function*(access: Access, quizId: PopQuizId) {
      const orgId = OrganizationId.make(access.actor.organizationId)
      const row = yield* mine(access, quizId)
      if (row.status === "COMPLETED") return yield* completedAlready()
      const startedAt = yield* sql.withTransaction(Effect.gen(function*() {
        const at = yield* recipients.start(orgId, row.recipient_id)
        if (at !== undefined) {
          yield* journal.record({
            caller: Caller.person(access),
            orgId,
            action: "pop_quiz.started",
            targets: [{ type: "pop_quiz", id: row.quiz_id }],
            changes: { status: { old: row.status, new: "STARTED" }, startedAt: { old: isoOrNull(row.started_at), new: iso(at) } }
          })
        }
        return at
      }))
      if (startedAt === undefined) {
        // READY but not startable: answered by a request of theirs running at the same time.
        if (row.generation_status === "READY") return yield* completedAlready()
        const retried = row.generation_status === "FAILED" && (yield* recipients.retryFailed(orgId, row.recipient_id))
        if (retried) yield* jobs.enqueue({ orgId, kind: "pop-quiz.prepare", subjectId: row.recipient_id })
        return yield* notReady(retried)
      }
      const attempt: PopQuizAttempt = {
        id: row.quiz_id,
        title: row.title,
        prompt: row.prompt,
        dueDate: iso(row.due_date),
        status: "STARTED",
        startedAt: iso(startedAt),
        questions: (row.questions ?? []).map(({ number, kind, question, choices }) => ({ number, kind, question, choices }))
      }
      return attempt
    })

    const answer = traced("PopQuizLearner.answer")(function*(access: Access, quizId: PopQuizId, body: QuizAnswers) {
      const orgId = OrganizationId.make(access.actor.organizationId)
      const row = yield* mine(access, quizId)
      if (row.status === "COMPLETED") return yield* completedAlready()
      if (row.status === "not_started") {
        return yield* new BadRequest({
          code: PopQuizLearnerCode.notStarted,
          message: "Start the pop quiz first (POST /v1/me/pop-quizzes/{id}/start) to see its questions"
        })
      }
      const questions = row.questions ?? []
      const problem = answersProblem(questions, body.answers)
      if (problem !== null) return yield* new BadRequest({ code: LearningCode.invalidAnswers, message: problem })
      const scored = scoreQuiz(questions, body.answers)
      const completedAt = yield* sql.withTransaction(Effect.gen(function*() {
        const at = yield* recipients.complete(orgId, row.recipient_id, scored.questions, scored.score)
        if (at !== undefined) {
          yield* journal.record({
            caller: Caller.person(access),
            orgId,
            action: "pop_quiz.completed",
            targets: [{ type: "pop_quiz", id: row.quiz_id }],
            changes: { status: { old: "STARTED", new: "COMPLETED" }, score: { new: scored.score } },
            events: [{
              type: "pop_quiz.completed",
              data: { popQuiz: { id: row.quiz_id, title: row.title }, score: scored.score },
              personId: access.actor.userId
            }]
          })
        }
        return at
      }))
      // Answered by a request of theirs running at the same time.
      if (completedAt === undefined) return yield* completedAlready()
      const outcome: PopQuizOutcome = {
        id: row.quiz_id,
        status: "COMPLETED",
        completedAt: iso(completedAt),
        score: scored.score,
        passed: scored.passed,
        resultsSummary: scored.resultsSummary,
        questions: scored.questions
      }
      return outcome
    })

    return { start, answer } as const
  }),
  dependencies: [PopQuizRecipientsRepo.Default, JobsRepo.Default, Journal.Default]
}) {}
