import { Caller } from "@tks/domain/caller"
import { contentRef } from "../content/content-events.js"
import type { ActRecord } from "../journal/journal.js"
import type { ProcessedContentRow } from "./content-repo.js"

/** Processing is the workers' own work: no person asked for it. */
const worker = Caller.system("worker")

const statuses = (row: ProcessedContentRow) => ({
  processingStatus: { new: row.processing_status },
  indexingStatus: { new: row.indexing_status }
})

/** A processing job that completed: `content.processed`. */
export const contentProcessed = (orgId: string, row: ProcessedContentRow): ActRecord => ({
  caller: worker,
  orgId,
  action: "content.processed",
  targets: [{ type: "content", id: row.id }],
  changes: statuses(row),
  events: [{ type: "content.processed", data: { content: contentRef(row) } }]
})

/** A processing job that failed for good: `content.processing_failed`, with the reason the content now shows. */
export const contentProcessingFailed = (orgId: string, row: ProcessedContentRow, reason: string): ActRecord => ({
  caller: worker,
  orgId,
  action: "content.processing_failed",
  targets: [{ type: "content", id: row.id }],
  changes: statuses(row),
  events: [{ type: "content.processing_failed", data: { content: contentRef(row), reason } }]
})
