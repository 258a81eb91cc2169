import { Effect } from "effect"
import { QuestionGenerator } from "@tks/adapters/questions/port"
import { enrollmentQuizQuestions } from "@tks/domain/quiz"
import { failJobOnSqlError } from "../common/database-failures.js"
import { JobFailure, type JobHandler } from "../jobs/handler.js"
import { QuizzesRepo } from "./repo.js"

/**
 * The "quiz.prepare" job (subject: an enrollment id): reads the lesson's
 * content pieces in order (their chapters, and the items they are evidence
 * for), asks the question generator for the enrollment's questions (seeded
 * by the enrollment, so each person gets their own), and writes them READY.
 * An enrollment gone (unassigned) or a quiz already READY is nothing to do.
 * When it fails for good the quiz is FAILED with the reason.
 */
export const quizPreparationJob = Effect.gen(function*() {
  const repo = yield* QuizzesRepo
  const generator = yield* QuestionGenerator

  const run = (orgId: Parameters<typeof repo.material>[0], enrollmentId: string) =>
    Effect.gen(function*() {
      const material = yield* repo.material(orgId, enrollmentId)
      if (material === undefined || material.status === "READY") return
      if (material.chapters.length === 0 && material.items.length === 0) {
        return yield* new JobFailure({ reason: "The lesson has no content to ask about" })
      }
      const questions = yield* generator.generate({
        title: material.title,
        chapters: material.chapters,
        items: material.items,
        difficulty: material.difficulty,
        count: enrollmentQuizQuestions,
        seed: enrollmentId
      }).pipe(Effect.mapError((error) => new JobFailure({ reason: `Question generation failed: ${error.reason}` })))
      yield* repo.markReady(orgId, enrollmentId, questions, generator.name)
    }).pipe(failJobOnSqlError)

  const handler: JobHandler<never> = {
    kind: "quiz.prepare",
    annotations: (job) => ({ enrollmentId: job.subjectId }),
    run: (job) => run(job.orgId, job.subjectId),
    onFailed: (job, reason) => repo.markFailed(job.orgId, job.subjectId, reason)
  }
  return handler
}).pipe(Effect.provide(QuizzesRepo.Default))
