import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Logger, LogLevel } from "effect"
import { LocalQuestionGenerator } from "@tks/adapters/questions/local"
import { QuestionGenerationFailed, QuestionGenerator } from "@tks/adapters/questions/port"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { popQuizQuestions } from "@tks/domain/pop-quiz-send"
import type { StoredQuestion } from "@tks/domain/quiz"
import type { JobFailure } from "../src/jobs/handler.js"
import type { ClaimedJob } from "../src/jobs/repo.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { popQuizPreparationJob } from "../src/pop-quizzes/preparation.js"
import { quizco } from "../testing/pop-quizzes.js"

/**
 * The "pop-quiz.prepare" job (packages/core/src/pop-quizzes/preparation.ts),
 * run directly as a worker would run it: each recipient's own questions,
 * READY and told in one transaction, exactly once however often it runs.
 */
const TestLayer = FixtureImporter.Default.pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

/** quizco with a quiz on the travel manual whose questions are still to be written for Lena, Max and Nina. */
const imported = Effect.flatMap(FixtureImporter, (importer) =>
  importer.importOrganization({
    ...quizco,
    popQuizzes: [
      {
        key: "fresh",
        content: "manual",
        dueDate: "2099-04-01T09:00:00.000Z",
        sentBy: "admin",
        recipients: [{ person: "lena" }, { person: "max" }, { person: "nina" }]
      },
      { key: "silent", content: "silent", dueDate: "2099-04-01T09:00:00.000Z", recipients: [{ person: "lena" }] }
    ]
  })).pipe(Effect.orDie)

interface Recipient {
  readonly id: string
  readonly user_id: string
  readonly generation_status: string
  readonly questions: ReadonlyArray<StoredQuestion> | null
  readonly generator: string | null
  readonly failure_reason: string | null
}

const recipientsOf = (quizId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<Recipient>`
      SELECT id, user_id, generation_status, questions, generator, failure_reason
      FROM pop_quiz_recipients WHERE pop_quiz_id = ${quizId}`).pipe(Effect.orDie)

const toldOf = (userId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ line: string }>`SELECT channel || ' ' || kind AS line FROM notifications WHERE user_id = ${userId} ORDER BY channel`).pipe(
      Effect.map((rows) => rows.map((row) => row.line)),
      Effect.orDie
    )

const jobOf = (orgId: string, recipientId: string, attempt = 1): ClaimedJob => ({
  id: `job_test_${recipientId}`,
  orgId: OrganizationId.make(orgId),
  kind: "pop-quiz.prepare",
  subjectId: recipientId,
  attempt,
  maxAttempts: 5
})

/** Runs the job for `recipientId` with `generator` (default: the local one). */
const runJob = (orgId: string, recipientId: string, generator: Layer.Layer<QuestionGenerator> = LocalQuestionGenerator) =>
  Effect.flatMap(popQuizPreparationJob, (handler) => handler.run(jobOf(orgId, recipientId))).pipe(Effect.provide(generator))

const failureOf = (exit: Exit.Exit<unknown, JobFailure>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error.reason : `not a failure: ${String(exit)}`

layer(TestLayer, { excludeTestServices: true })("the pop-quiz.prepare job", (it) => {
  it.effect("writes each recipient's own questions (seeded by the recipient), READY, and tells them: email, and a text with a phone", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const quizId = result.ids.popQuizzes.fresh!
      const before = yield* recipientsOf(quizId)
      expect(before.map((row) => row.generation_status)).toEqual(["PENDING", "PENDING", "PENDING"])
      for (const row of before) yield* runJob(result.organizationId, row.id)

      const after = yield* recipientsOf(quizId)
      for (const row of after) {
        expect(row).toMatchObject({ generation_status: "READY", generator: "local", failure_reason: null })
        expect(row.questions!.length).toBeGreaterThan(0)
        expect(row.questions!.length).toBeLessThanOrEqual(popQuizQuestions)
        // About the manual: its sentences and the items it is evidence for.
        for (const question of row.questions!) {
          expect(`${question.question} ${question.explanation}`).toMatch(/trip|travel|economy|business class|hotel|receipt|expense|meal|card|itinerary|portal/i)
        }
      }
      // Different people, different questions: the same content, another seed.
      const sets = new Set(after.map((row) => JSON.stringify(row.questions)))
      expect(sets.size).toBe(after.length)

      const people = result.ids.people
      expect(yield* toldOf(people.lena!)).toEqual(["email PopQuizReady", "sms PopQuizReady"])
      expect(yield* toldOf(people.max!)).toEqual(["email PopQuizReady"])
      expect(yield* toldOf(people.nina!)).toEqual(["email PopQuizReady"])
      const [notice] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ notice: unknown }>`SELECT notice FROM notifications WHERE user_id = ${people.max!}`).pipe(Effect.orDie)
      expect(notice!.notice).toEqual({ _tag: "PopQuizReady", popQuizId: quizId, title: "Pop quiz: Travel Manual", dueDate: "2099-04-01T09:00:00.000Z" })
    }))

  it.effect("run again after a takeover, or twice at once: the questions stay as first written and the person is told once", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const lena = result.ids.people.lena!
      const max = result.ids.people.max!
      const rows = yield* recipientsOf(result.ids.popQuizzes.fresh!)
      const lenaRow = rows.find((row) => row.user_id === lena)!
      const maxRow = rows.find((row) => row.user_id === max)!

      yield* runJob(result.organizationId, lenaRow.id)
      const written = (yield* recipientsOf(result.ids.popQuizzes.fresh!)).find((row) => row.user_id === lena)!.questions
      yield* runJob(result.organizationId, lenaRow.id)
      expect((yield* recipientsOf(result.ids.popQuizzes.fresh!)).find((row) => row.user_id === lena)!.questions).toEqual(written)
      expect(yield* toldOf(lena)).toEqual(["email PopQuizReady", "sms PopQuizReady"])

      yield* Effect.all([runJob(result.organizationId, maxRow.id), runJob(result.organizationId, maxRow.id)], { concurrency: 2 })
      expect(yield* toldOf(max)).toEqual(["email PopQuizReady"])
    }))

  it.effect("when generation fails the attempt fails with the reason and nothing is written; failing for good marks the questions FAILED", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const rows = yield* recipientsOf(result.ids.popQuizzes.fresh!)
      const nina = rows.find((row) => row.user_id === result.ids.people.nina)!
      const down = Layer.succeed(QuestionGenerator, {
        name: "down",
        generate: () => Effect.fail(new QuestionGenerationFailed({ reason: "the model is down" }))
      })
      const exit = yield* Effect.exit(runJob(result.organizationId, nina.id, down))
      expect(failureOf(exit)).toBe("Question generation failed: the model is down")
      expect((yield* recipientsOf(result.ids.popQuizzes.fresh!)).find((row) => row.id === nina.id)).toMatchObject({ generation_status: "PENDING", questions: null })
      expect(yield* toldOf(result.ids.people.nina!)).toEqual([])

      const handler = yield* popQuizPreparationJob.pipe(Effect.provide(down))
      yield* handler.onFailed(jobOf(result.organizationId, nina.id, 5), "Question generation failed: the model is down").pipe(Effect.orDie)
      expect((yield* recipientsOf(result.ids.popQuizzes.fresh!)).find((row) => row.id === nina.id)).toMatchObject({
        generation_status: "FAILED",
        failure_reason: "Question generation failed: the model is down"
      })
      // A recipient whose questions are READY is never marked FAILED.
      const lena = rows.find((row) => row.user_id === result.ids.people.lena)!
      yield* runJob(result.organizationId, lena.id)
      yield* handler.onFailed(jobOf(result.organizationId, lena.id), "late").pipe(Effect.orDie)
      expect((yield* recipientsOf(result.ids.popQuizzes.fresh!)).find((row) => row.id === lena.id)!.generation_status).toBe("READY")
    }))

  it.effect("content with nothing to ask about fails the attempt; a recipient that is gone is nothing to do", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const [silent] = yield* recipientsOf(result.ids.popQuizzes.silent!)
      const exit = yield* Effect.exit(runJob(result.organizationId, silent!.id))
      expect(failureOf(exit)).toContain("nothing to ask about")
      expect(yield* runJob(result.organizationId, "pqr_gone")).toBeUndefined()
    }))
})
