import type { AuditChange } from "@tks/domain/audit"
import type { Caller } from "@tks/domain/caller"
import type { ContentRef } from "@tks/domain/events"
import type { Audience } from "@tks/domain/intake"
import type { ActRecord, EventDraft } from "../journal/journal.js"

/** A content record as its events name it. */
export type ContentRefData = typeof ContentRef.Type

export const contentRef = (row: { readonly id: string; readonly title: string; readonly type: ContentRefData["kind"] }): ContentRefData => ({
  id: row.id,
  title: row.title,
  kind: row.type
})

/** Who may read the content, as an audit row's new values (teamIds only when some are named). */
export const audienceChanges = (audience: Audience): Record<string, AuditChange> => ({
  visibility: { new: audience.visibility },
  ...(audience.teamIds.length > 0 ? { teamIds: { new: [...audience.teamIds] } } : {})
})

export const contentPublished = (content: ContentRefData): EventDraft => ({ type: "content.published", data: { content } })

/**
 * Content added straight to the library (readable once processed, whatever
 * processing then does): `content.published`; a draft, which nobody reads
 * yet, only its audit row (`content.drafted`).
 */
export const contentAdded = (
  caller: Caller,
  orgId: string,
  content: ContentRefData,
  audience: Audience,
  draft: boolean
): ActRecord => ({
  caller,
  orgId,
  action: draft ? "content.drafted" : "content.published",
  targets: [{ type: "content", id: content.id }],
  changes: { status: { new: draft ? "draft" : "published" }, title: { new: content.title }, ...audienceChanges(audience) },
  events: draft ? [] : [contentPublished(content)]
})
