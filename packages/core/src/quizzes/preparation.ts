import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { defaultQuizDifficulty } from "@tks/domain/quiz"
import { JobsRepo } from "../jobs/repo.js"
import { QuizzesRepo } from "./repo.js"

/**
 * Preparing enrollments' quizzes (a quiz is prepared for
 * each person when they are enrolled). Whoever creates enrollments calls
 * `prepare` in the same transaction: each gets its PENDING quiz row, with
 * the organization's default difficulty, and a "quiz.prepare" job that
 * writes the questions after the act commits. Set-based: two statements
 * however many enrollments.
 */
export class QuizPreparation extends Effect.Service<QuizPreparation>()("@tks/core/QuizPreparation", {
  effect: Effect.gen(function*() {
    const repo = yield* QuizzesRepo
    const jobs = yield* JobsRepo

    const prepare = (input: { readonly orgId: OrganizationId; readonly enrollmentIds: ReadonlyArray<string> }) =>
      input.enrollmentIds.length === 0 ? Effect.void : repo.insertPending(input.orgId, input.enrollmentIds, defaultQuizDifficulty).pipe(
        Effect.zipRight(jobs.enqueueMany({ orgId: input.orgId, kind: "quiz.prepare", subjectIds: input.enrollmentIds })),
        Effect.withSpan("QuizPreparation.prepare", { attributes: { enrollments: input.enrollmentIds.length } })
      )

    /** A quiz that FAILED for good is tried again (PENDING, a new job); one in any other state is left alone. */
    const retryFailed = (input: { readonly orgId: OrganizationId; readonly enrollmentId: string }) =>
      repo.retryFailed(input.orgId, input.enrollmentId).pipe(
        Effect.flatMap((failed) =>
          failed ? jobs.enqueue({ orgId: input.orgId, kind: "quiz.prepare", subjectId: input.enrollmentId }) : Effect.void
        )
      )

    return { prepare, retryFailed } as const
  }),
  dependencies: [QuizzesRepo.Default, JobsRepo.Default]
}) {}
