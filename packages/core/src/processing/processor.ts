import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, Option } from "effect"
import { KnowledgeExtractor } from "@tks/adapters/extraction/port"
import { splitIntoChapters } from "./chapters.js"
import { type ContentKey, type ContentToProcess, ProcessingContentRepo, type StoredChapter } from "./content-repo.js"
import { ProcessingIndexRepo } from "./index-repo.js"
import { ProcessingKnowledgeRepo } from "./knowledge-repo.js"
import { Journal } from "../journal/journal.js"
import { persistPlan } from "./persist.js"
import { planKnowledge } from "./plan.js"
import { contentProcessed, contentProcessingFailed } from "./processing-events.js"

export type StageName = "chapters" | "extraction" | "related" | "indexing"

export interface StageTiming {
  readonly stage: StageName
  readonly ms: number
}

export interface ProcessOptions {
  /**
   * A pause before each stage (WORKER_STAGE_DELAY_MS): a debugging aid that
   * makes a job slow on purpose, e.g. to kill its worker mid-job. 0 in use.
   */
  readonly stageDelayMs?: number
}

/** What a run did: skipped (gone or not published), or each stage's time. */
export type ProcessOutcome =
  | { readonly _tag: "Skipped"; readonly reason: string }
  | { readonly _tag: "Processed"; readonly stages: ReadonlyArray<StageTiming> }

/**
 * The content-processing pipeline (issue 6, section 2): chapters, knowledge
 * extraction, related topics, full-text indexing. Every stage can run again
 * from the start and writes the same rows, so a retried job, or a job run
 * twice after a takeover, never duplicates anything. The job handler
 * (job.ts) runs `process`; the stages are exposed for tests.
 */
export class ContentProcessor extends Effect.Service<ContentProcessor>()("@tks/core/ContentProcessor", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const extractor = yield* KnowledgeExtractor
    const contents = yield* ProcessingContentRepo
    const knowledge = yield* ProcessingKnowledgeRepo
    const index = yield* ProcessingIndexRepo
    const journal = yield* Journal

    /** Stage 1: the body's chapters, replacing the stored ones. */
    const chapters = (key: ContentKey, content: ContentToProcess) =>
      contents.replaceChapters(key, content.body === null ? [] : splitIntoChapters(content.body))

    /** Stage 2: topics, items and evidence from the extractor, and a better title and a summary. */
    const extract = (key: ContentKey, content: ContentToProcess, stored: ReadonlyArray<StoredChapter>) =>
      Effect.gen(function*() {
        const body = content.body ?? ""
        const extraction = yield* extractor.extract({
          title: content.title,
          markdown: body,
          chapters: stored.map((chapter) => ({ ...chapter, text: body.slice(chapter.start, chapter.end) }))
        })
        const plan = planKnowledge(extraction, body, stored)
        const counts = yield* sql.withTransaction(Effect.gen(function*() {
          yield* contents.refine(key, { title: extraction.title, summary: extraction.summary })
          return yield* persistPlan(knowledge, key, content, plan, stored)
        }))
        return { ...counts, droppedItems: plan.droppedItems }
      })

    /** Stage 3: related topics of the topics this content is evidence for. */
    const relate = (key: ContentKey) =>
      Effect.gen(function*() {
        const topicIds = yield* knowledge.touchedTopics(key.orgId, key.contentId)
        const pairs = yield* index.relatedTopics(key.orgId, topicIds)
        yield* sql.withTransaction(index.replaceRelated(key.orgId, topicIds, pairs))
        return { topics: topicIds.length, relations: pairs.length }
      })

    /** Stage 4: search vectors of the content's chapters and of the topics it touched. */
    const indexContent = (key: ContentKey) =>
      Effect.gen(function*() {
        yield* contents.startIndexing(key)
        const topicIds = yield* knowledge.touchedTopics(key.orgId, key.contentId)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* index.indexChapters(key.orgId, key.contentId)
          yield* index.indexTopics(key.orgId, topicIds)
          yield* contents.indexingCompleted(key)
        }))
        return { topics: topicIds.length }
      })

    const process = (key: ContentKey, options: ProcessOptions = {}) =>
      Effect.gen(function*() {
        const found = yield* contents.load(key)
        if (Option.isNone(found)) return { _tag: "Skipped", reason: "the content no longer exists" } as const
        const content = found.value
        if (content.status !== "published") return { _tag: "Skipped", reason: `the content is ${content.status}` } as const
        const timings: Array<StageTiming> = []
        // Logs the stage's time and what it wrote (`counts`).
        const stage = <A, E, R>(name: StageName, run: Effect.Effect<A, E, R>, counts: (a: A) => Record<string, number>) =>
          Effect.gen(function*() {
            if ((options.stageDelayMs ?? 0) > 0) yield* Effect.sleep(Duration.millis(options.stageDelayMs ?? 0))
            const started = yield* Clock.currentTimeMillis
            const result = yield* run
            const ms = (yield* Clock.currentTimeMillis) - started
            timings.push({ stage: name, ms })
            yield* Effect.logInfo(`stage ${name} done`).pipe(Effect.annotateLogs({ stage: name, ms, ...counts(result) }))
            return result
          })
        const same = (counts: Record<string, number>) => counts

        yield* contents.startProcessing(key)
        // A video has no body: no chapters and nothing to extract, but it completes like any content.
        const stored = yield* stage("chapters", chapters(key, content), (rows) => ({ chapters: rows.length }))
        if (stored.length > 0) yield* stage("extraction", extract(key, content, stored), same)
        yield* stage("related", relate(key), same)
        yield* contents.processingCompleted(key)
        yield* stage("indexing", indexContent(key), same)
        return { _tag: "Processed", stages: timings } as const
      }).pipe(Effect.annotateLogs({ contentId: key.contentId }))

    /**
     * The job failed for good: the reason goes on the content, and the act
     * is recorded (`content.processing_failed`). Runs in the transaction
     * that marks the job FAILED; content that no longer exists records nothing.
     */
    const markFailed = (key: ContentKey, reason: string) =>
      Effect.flatMap(contents.failed(key, reason), (row) =>
        row === undefined ? Effect.void : Effect.asVoid(journal.record(contentProcessingFailed(key.orgId, row, reason))))

    /** The job completed: `content.processed`, for the transaction that marks the job COMPLETED. */
    const recordProcessed = (key: ContentKey) =>
      Effect.flatMap(contents.outcome(key), (row) =>
        row === undefined ? Effect.void : Effect.asVoid(journal.record(contentProcessed(key.orgId, row))))

    return { process, markFailed, recordProcessed, chapters, extract, relate, index: indexContent, load: contents.load } as const
  }),
  dependencies: [ProcessingContentRepo.Default, ProcessingKnowledgeRepo.Default, ProcessingIndexRepo.Default, Journal.Default]
}) {}
