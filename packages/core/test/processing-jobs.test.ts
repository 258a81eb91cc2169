import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { JobsRepo } from "../src/jobs/repo.js"
import { JobWake } from "../src/jobs/wake.js"
import { runJobWorkers } from "../src/jobs/worker.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { contentProcessingJob } from "../src/processing/job.js"
import { ContentProcessor } from "../src/processing/processor.js"
import { ContentProcessing } from "../src/processing/service.js"
import { contentRecord, insertContent, snapshot } from "./support/content-rows.js"
import { handbookChapterCount, handbookItemCount, travelHandbook } from "./support/handbook.js"
import { eventually, onlyJobOf } from "./support/jobs.js"
import { TestExtractorLive } from "./support/test-extractor.js"

const TestLayer = Layer.mergeAll(ContentProcessor.Default, ContentProcessing.Default, JobsRepo.Default, JobWake.Default, FixtureImporter.Default).pipe(
  Layer.provide(TestExtractorLive),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

const organization = Effect.flatMap(FixtureImporter, (importer) => importer.importOrganization({ organization: { name: "Jobs Org" } })).pipe(
  Effect.map((result) => OrganizationId.make(result.organizationId)),
  Effect.orDie
)

const startWorkers = Effect.gen(function*() {
  const handler = yield* contentProcessingJob()
  yield* runJobWorkers({ owner: "processing-test", concurrency: 2, pollMs: 50, leaseMs: 10_000, retryBaseMs: 10 }, [handler])
})

const settled = (orgId: string, contentId: string) =>
  eventually(Effect.map(contentRecord(orgId, contentId), (c) => ["COMPLETED", "FAILED"].includes(c.indexing_status)))

// Real time: the workers poll and retry on real clocks.
layer(TestLayer, { excludeTestServices: true })("content processing jobs", (it) => {
  it.scoped("content enqueued for processing is processed by the workers, and its job completes", () =>
    Effect.gen(function*() {
      const orgId = yield* organization
      yield* startWorkers
      const contentId = yield* insertContent({ orgId, body: travelHandbook })
      yield* Effect.flatMap(ContentProcessing, (processing) => processing.enqueue(orgId, contentId))
      yield* settled(orgId, contentId)
      expect(yield* contentRecord(orgId, contentId)).toMatchObject({ processing_status: "COMPLETED", indexing_status: "COMPLETED" })
      // The job is marked COMPLETED after the last stage, in its own transaction (with the act's record).
      yield* eventually(Effect.map(onlyJobOf(contentId), (job) => job.status !== "RUNNING"))
      expect(yield* onlyJobOf(contentId)).toMatchObject({ status: "COMPLETED", attempts: 1 })
      const made = yield* snapshot(orgId, contentId)
      expect([made.chapters.length, made.items.length]).toEqual([handbookChapterCount, handbookItemCount])
    }))

  it.scoped("a job for content that is not published completes without processing it", () =>
    Effect.gen(function*() {
      const orgId = yield* organization
      yield* startWorkers
      const contentId = yield* insertContent({ orgId, body: travelHandbook, status: "draft" })
      yield* Effect.flatMap(ContentProcessing, (processing) => processing.enqueue(orgId, contentId))
      yield* eventually(Effect.map(onlyJobOf(contentId), (job) => job.status === "COMPLETED"))
      expect(yield* contentRecord(orgId, contentId)).toMatchObject({ processing_status: "PENDING", indexing_status: "PENDING" })
    }))

  it.scoped("when extraction keeps failing, the job ends FAILED after its attempts and the content says why", () =>
    Effect.gen(function*() {
      const orgId = yield* organization
      yield* startWorkers
      const contentId = yield* insertContent({ orgId, body: `${travelHandbook}\nExtraction fails: the model is unavailable\n` })
      yield* Effect.flatMap(ContentProcessing, (processing) => processing.enqueue(orgId, contentId))
      yield* settled(orgId, contentId)
      const reason = "Knowledge extraction failed: the model is unavailable"
      expect(yield* onlyJobOf(contentId)).toMatchObject({ status: "FAILED", attempts: 5, last_error: reason })
      expect(yield* contentRecord(orgId, contentId)).toMatchObject({
        processing_status: "FAILED",
        processing_error: reason,
        indexing_status: "FAILED",
        indexing_error: "Not indexed: processing failed"
      })
      // The stage before the failure did its work, once.
      expect((yield* snapshot(orgId, contentId)).chapters).toHaveLength(handbookChapterCount)
    }))
})
