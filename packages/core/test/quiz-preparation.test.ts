import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Schema } from "effect"
import { LocalQuestionGenerator } from "@tks/adapters/questions/local"
import { QuestionGenerationFailed, QuestionGenerator } from "@tks/adapters/questions/port"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { enrollmentQuizQuestions, StoredQuestions } from "@tks/domain/quiz"
import { JobsRepo } from "../src/jobs/repo.js"
import { JobWake } from "../src/jobs/wake.js"
import { runJobWorkers } from "../src/jobs/worker.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { quizPreparationJob } from "../src/quizzes/job.js"
import { QuizPreparation } from "../src/quizzes/preparation.js"
import { newId } from "../src/common/ids.js"
import { learning } from "../testing/learning.js"
import { eventually, jobsOf, onlyJobOf } from "./support/jobs.js"

const TestLayer = Layer.mergeAll(QuizPreparation.Default, JobsRepo.Default, JobWake.Default, FixtureImporter.Default).pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

const imported = Effect.flatMap(FixtureImporter, (importer) => importer.importOrganization(learning)).pipe(Effect.orDie)

interface QuizRow {
  readonly status: string
  readonly difficulty: string
  readonly questions: unknown
  readonly generator: string | null
  readonly failure_reason: string | null
}

const quizOf = (enrollmentId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<QuizRow>`SELECT status, difficulty, questions, generator, failure_reason FROM enrollment_quizzes WHERE enrollment_id = ${enrollmentId}`
  ).pipe(Effect.map((rows) => rows[0]), Effect.orDie)

/** A new enrollment row of `userId` in `lessonId`, and its quiz prepared, in one transaction. */
const enrollAndPrepare = (orgId: string, userId: string, lessonId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const preparation = yield* QuizPreparation
    const id = newId("enrollment")
    yield* sql.withTransaction(
      sql`INSERT INTO enrollments (org_id, id, user_id, lesson_id) VALUES (${orgId}, ${id}, ${userId}, ${lessonId})`.pipe(
        Effect.zipRight(preparation.prepare({ orgId: OrganizationId.make(orgId), enrollmentIds: [id] }))
      )
    )
    return id
  }).pipe(Effect.orDie)

const startWorkers = (generator: Layer.Layer<QuestionGenerator>) =>
  Effect.gen(function*() {
    const handler = yield* quizPreparationJob.pipe(Effect.provide(generator))
    yield* runJobWorkers({ owner: "quiz-test", concurrency: 2, pollMs: 50, leaseMs: 10_000, retryBaseMs: 10 }, [handler])
  })

const settled = (enrollmentId: string) =>
  eventually(Effect.map(quizOf(enrollmentId), (quiz) => quiz !== undefined && quiz.status !== "PENDING"))

// Real time: the workers poll and retry on real clocks.
layer(TestLayer, { excludeTestServices: true })("quiz preparation", (it) => {
  it.scoped("enrolling prepares a PENDING quiz at MODERATE with a quiz.prepare job; the job writes the lesson's questions READY", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const id = yield* enrollAndPrepare(result.organizationId, result.ids.people.max!, result.ids.lessons.leaOwn!)
      expect(yield* quizOf(id)).toMatchObject({ status: "PENDING", difficulty: "MODERATE", questions: null })
      expect(yield* onlyJobOf(id)).toMatchObject({ status: "PENDING" })

      yield* startWorkers(LocalQuestionGenerator)
      yield* settled(id)
      const quiz = (yield* quizOf(id))!
      expect(quiz).toMatchObject({ status: "READY", generator: "local", failure_reason: null })
      const questions = yield* Schema.decodeUnknown(StoredQuestions)(quiz.questions)
      expect(questions).toHaveLength(enrollmentQuizQuestions)
      // The questions are about the lesson's content, and test the topics it covers.
      const covered = [result.ids.topics.inspection, result.ids.topics.loading]
      for (const question of questions) {
        expect(question.explanation, question.question).toMatch(/forklift|pallet|spotter|inspection|tag-out|stacking|loads|drivers/i)
        if (question.topicId !== null) expect(covered).toContain(question.topicId)
      }
      expect(questions.some((question) => question.topicId !== null)).toBe(true)
      expect(yield* onlyJobOf(id)).toMatchObject({ status: "COMPLETED", attempts: 1 })
    }))

  it.scoped("preparing is set-based and belongs to the caller's transaction: rolled back, no quiz and no job remain", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const sql = yield* SqlClient.SqlClient
      const preparation = yield* QuizPreparation
      const orgId = OrganizationId.make(result.organizationId)
      const ids = [newId("enrollment"), newId("enrollment")]
      const people = [result.ids.people.lea!, result.ids.people.cody!]
      const attempt = sql.withTransaction(
        Effect.gen(function*() {
          for (const [index, id] of ids.entries()) {
            yield* sql`INSERT INTO enrollments (org_id, id, user_id, lesson_id) VALUES (${orgId}, ${id}, ${people[index]!}, ${result.ids.lessons.leaOwn!})`
          }
          yield* preparation.prepare({ orgId, enrollmentIds: ids })
          const written = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM enrollment_quizzes WHERE enrollment_id = ANY(${ids})`
          expect(written[0]?.n).toBe(2)
          return yield* Effect.fail("rolled back on purpose")
        })
      )
      expect(yield* Effect.flip(attempt)).toBe("rolled back on purpose")
      for (const id of ids) {
        expect(yield* quizOf(id)).toBeUndefined()
        expect(yield* jobsOf(id)).toEqual([])
      }
      // Nothing to prepare is nothing written.
      yield* preparation.prepare({ orgId, enrollmentIds: [] })
    }))

  it.scoped("when the generator keeps failing, the quiz ends FAILED with the reason after the job's attempts", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const failing = Layer.succeed(QuestionGenerator, {
        name: "failing",
        generate: () => Effect.fail(new QuestionGenerationFailed({ reason: "the model is down" }))
      })
      const id = yield* enrollAndPrepare(result.organizationId, result.ids.people.cody!, result.ids.lessons.leaOwn!)
      yield* startWorkers(failing)
      yield* settled(id)
      expect(yield* quizOf(id)).toMatchObject({
        status: "FAILED",
        questions: null,
        failure_reason: "Question generation failed: the model is down"
      })
      expect(yield* onlyJobOf(id)).toMatchObject({ status: "FAILED", attempts: 5 })
    }))

  it.scoped("a lesson without content fails for good with that reason; a FAILED quiz is tried again when asked", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const id = yield* enrollAndPrepare(result.organizationId, result.ids.people.max!, result.ids.lessons.empty!)
      yield* startWorkers(LocalQuestionGenerator)
      yield* settled(id)
      expect(yield* quizOf(id)).toMatchObject({ status: "FAILED", failure_reason: "The lesson has no content to ask about" })

      const preparation = yield* QuizPreparation
      yield* preparation.retryFailed({ orgId: OrganizationId.make(result.organizationId), enrollmentId: id })
      const jobs = yield* jobsOf(id)
      expect(jobs.map((job) => job.status)).toContain("FAILED")
      expect(jobs).toHaveLength(2)
    }))

  it.scoped("a job whose enrollment is gone, or whose quiz is already READY, completes without writing", () =>
    Effect.gen(function*() {
      const result = yield* imported
      const sql = yield* SqlClient.SqlClient
      const gone = yield* enrollAndPrepare(result.organizationId, result.ids.people.lea!, result.ids.lessons.leaOwn!)
      yield* sql`DELETE FROM enrollments WHERE id = ${gone}`
      const ready = result.ids.enrollments.maxForklift!
      const before = yield* quizOf(ready)
      yield* Effect.flatMap(QuizPreparation, (preparation) =>
        // Already has its quiz row: only the job is added.
        preparation.prepare({ orgId: OrganizationId.make(result.organizationId), enrollmentIds: [ready] }))
      yield* startWorkers(LocalQuestionGenerator)
      yield* eventually(Effect.map(onlyJobOf(gone), (job) => job.status === "COMPLETED"))
      yield* eventually(Effect.map(jobsOf(ready), (jobs) => jobs.every((job) => job.status === "COMPLETED")))
      expect(yield* quizOf(ready)).toEqual(before)
    }))
})
