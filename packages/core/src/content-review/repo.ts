import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ContentStatus, ReviewKind, ReviewResourceType, ReviewStatus } from "@tks/domain/content-review"
import type { OrganizationId, UserId } from "@tks/domain/ids"
import type { Visibility } from "@tks/domain/roles"
import { newestFirst } from "../common/keyset.js"

export interface ReviewRow {
  readonly id: string
  readonly status: ReviewStatus
  readonly resource_type: ReviewResourceType
  readonly kind: ReviewKind
  readonly title: string
  readonly content_id: string | null
  readonly submitter_id: string
  readonly submitter_name: string
  readonly decided_at: Date | null
  readonly decision_note: string | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly created_us: string
}

export interface ReviewFilter {
  readonly orgId: OrganizationId
  readonly status: ReviewStatus | null
  readonly resourceType: ReviewResourceType | null
  readonly kind: ReviewKind | null
  /** Every id here must be the submitter (the caller's own, a reviewer's submitterId filter); none: anyone's. */
  readonly submitters: ReadonlyArray<string>
}

/** The review lane's SQL (list, get, and the decisions). */
export class ContentReviewRepo extends Effect.Service<ContentReviewRepo>()("@tks/core/ContentReviewRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`r.id, r.status, r.resource_type, r.kind, r.title, r.content_id, r.submitter_id, u.name AS submitter_name,
      r.decided_at, r.decision_note, r.created_at, r.updated_at, ${newestFirst.column(sql, "r")}`

    /** Requests newest first, after `after`. */
    const page = (filter: ReviewFilter, after: readonly [string, string] | null, limit: number) =>
      sql<ReviewRow>`
        SELECT ${columns}
        FROM content_review_requests r
        JOIN users u ON u.org_id = r.org_id AND u.id = r.submitter_id
        WHERE r.org_id = ${filter.orgId}
          ${filter.status === null ? sql`` : sql`AND r.status = ${filter.status}`}
          ${filter.resourceType === null ? sql`` : sql`AND r.resource_type = ${filter.resourceType}`}
          ${filter.kind === null ? sql`` : sql`AND r.kind = ${filter.kind}`}
          AND ${sql.and(filter.submitters.map((id) => sql`r.submitter_id = ${id}`))}
          ${newestFirst.after(sql, "r", after)}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${limit}`

    /**
     * One request; `submitter` limits it to that person's own. `lock` holds
     * it until the transaction ends, so a decision records the state it
     * really moved from.
     */
    const find = (orgId: OrganizationId, id: string, submitter: UserId | null, lock = false) =>
      sql<ReviewRow>`
        SELECT ${columns}
        FROM content_review_requests r
        JOIN users u ON u.org_id = r.org_id AND u.id = r.submitter_id
        WHERE r.org_id = ${orgId} AND r.id = ${id}
          ${submitter === null ? sql`` : sql`AND r.submitter_id = ${submitter}`}
        ${lock ? sql`FOR UPDATE OF r` : sql``}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * Moves a request from one of `from` to `to`, in one conditional
     * statement: of two concurrent decisions, the second finds the state
     * moved on and changes nothing. Returns the request's content id, or
     * undefined when nothing moved (absent, not the submitter's, or not in
     * a state the decision allows). A note not given keeps the one there.
     */
    const move = (input: {
      readonly orgId: OrganizationId
      readonly id: string
      readonly from: ReadonlyArray<ReviewStatus>
      readonly to: ReviewStatus
      readonly decidedBy: UserId
      readonly note: string | null
      readonly submitter: UserId | null
    }) =>
      sql<{ content_id: string | null }>`
        UPDATE content_review_requests
        SET status = ${input.to}, decided_by = ${input.decidedBy}, decided_at = now(),
          decision_note = COALESCE(${input.note}, decision_note), updated_at = now()
        WHERE org_id = ${input.orgId} AND id = ${input.id} AND status = ANY(${[...input.from]})
          ${input.submitter === null ? sql`` : sql`AND submitter_id = ${input.submitter}`}
        RETURNING content_id`.pipe(Effect.map((rows) => rows[0]))

    /** The content of a request in review takes the state the decision gives it (and, when published, its visibility). */
    const settleContent = (orgId: OrganizationId, contentId: string, status: ContentStatus, visibility: Visibility | null) =>
      sql`
        UPDATE content SET status = ${status}, updated_at = now()
          ${visibility === null ? sql`` : sql`, visibility = ${visibility}`}
        WHERE org_id = ${orgId} AND id = ${contentId} AND status = 'in_review'
        RETURNING id`.pipe(Effect.map((rows) => rows.length > 0))

    /** The content a request is about, as its events name it, with who may read it now. */
    const content = (orgId: OrganizationId, contentId: string) =>
      sql<{ id: string; title: string; type: "document" | "video" | "guide"; visibility: Visibility }>`
        SELECT id, title, type, visibility FROM content WHERE org_id = ${orgId} AND id = ${contentId}`.pipe(
        Effect.map((rows) => rows[0])
      )

    return { page, find, move, settleContent, content } as const
  })
}) {}
