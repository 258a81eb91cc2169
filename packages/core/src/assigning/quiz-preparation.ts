import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { JobsRepo } from "../jobs/repo.js"

/**
 * STAND-IN for `QuizPreparation` (packages/core/src/quizzes/preparation.ts,
 * branch wt/quiz), with the same contract: each new enrollment gets its
 * `enrollment_quizzes` row (PENDING, the organization's default difficulty)
 * and a "quiz.prepare" job, in the caller's transaction, set-based. The
 * assigning acts call only `prepare`; swapping in the real one changes the
 * import.
 */
export class QuizPreparation extends Effect.Service<QuizPreparation>()("@tks/core/assigning/QuizPreparation", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const jobs = yield* JobsRepo

    const prepare = (input: { readonly orgId: OrganizationId; readonly enrollmentIds: ReadonlyArray<string> }) =>
      input.enrollmentIds.length === 0 ? Effect.void : Effect.gen(function*() {
        yield* sql`
          INSERT INTO enrollment_quizzes (org_id, enrollment_id)
          SELECT ${input.orgId}, id FROM unnest(${[...input.enrollmentIds]}::text[]) AS e(id)
          ON CONFLICT DO NOTHING`
        yield* jobs.enqueueMany({ orgId: input.orgId, kind: "quiz.prepare", subjectIds: input.enrollmentIds })
      })

    return { prepare } as const
  }),
  dependencies: [JobsRepo.Default]
}) {}
