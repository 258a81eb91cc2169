import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ContentType } from "@tks/domain/content"
import type { OrganizationId } from "@tks/domain/ids"
import type {
  IssueAssigneeType,
  IssueSeverity,
  IssueStatus,
  IssueTargetType,
  IssueType,
  ResolutionStrategy
} from "@tks/domain/issue"
import { contentVisible } from "../knowledge/access.js"
import { newestFirst } from "../common/keyset.js"
import { assignedTo, type IssueReader, issueReadable, targetVisible } from "./access.js"

export interface IssueRow {
  readonly id: string
  readonly type: IssueType
  readonly severity: IssueSeverity
  readonly status: IssueStatus
  readonly title: string
  readonly assignee_type: IssueAssigneeType | null
  readonly assignee_id: string | null
  readonly assignee_name: string | null
  readonly target_count: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly created_us: string
}

interface TargetJson {
  readonly entityType: IssueTargetType
  readonly entityId: string
  readonly entityName: string
  readonly content: ReadonlyArray<{ readonly id: string; readonly title: string; readonly type: ContentType }>
}

export interface IssueDetailRow extends IssueRow {
  readonly description: string | null
  readonly resolution_strategy: ResolutionStrategy | null
  readonly resolution_note: string | null
  readonly resolved_at: Date | null
  readonly targets: ReadonlyArray<TargetJson>
}

export interface IssueFilter {
  readonly orgId: OrganizationId
  readonly status: IssueStatus | null
  readonly type: IssueType | null
  readonly severity: IssueSeverity | null
  readonly assignedToMe: boolean
}

/** The issue reads: one statement per page, one per issue with its targets and their content. */
export class IssuesRepo extends Effect.Service<IssuesRepo>()("@tks/core/IssuesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = (who: IssueReader) =>
      sql`i.id, i.type, i.severity, i.status, i.title,
        CASE WHEN i.assignee_user_id IS NOT NULL THEN 'person' WHEN i.assignee_role_id IS NOT NULL THEN 'role' END AS assignee_type,
        COALESCE(i.assignee_user_id, i.assignee_role_id) AS assignee_id,
        COALESCE(au.name, ar.name) AS assignee_name,
        (SELECT count(*)::int FROM data_quality_issue_targets ct
          WHERE ct.org_id = i.org_id AND ct.issue_id = i.id AND ${targetVisible(sql, who, "ct")}) AS target_count,
        i.created_at, i.updated_at, ${newestFirst.column(sql, "i")}`

    const assignees = sql`
      LEFT JOIN users au ON au.org_id = i.org_id AND au.id = i.assignee_user_id
      LEFT JOIN company_roles ar ON ar.org_id = i.org_id AND ar.id = i.assignee_role_id`

    /** Readable issues newest first (data_quality_issues_newest / _by_status), after `after`. */
    const page = (filter: IssueFilter, who: IssueReader, after: readonly [string, string] | null, limit: number) =>
      sql<IssueRow>`
        SELECT ${columns(who)}
        FROM data_quality_issues i ${assignees}
        WHERE i.org_id = ${filter.orgId}
          ${filter.status === null ? sql`` : sql`AND i.status = ${filter.status}`}
          ${filter.type === null ? sql`` : sql`AND i.type = ${filter.type}`}
          ${filter.severity === null ? sql`` : sql`AND i.severity = ${filter.severity}`}
          ${filter.assignedToMe ? sql`AND ${assignedTo(sql, who.userId, "i")}` : sql``}
          AND ${issueReadable(sql, who, "i")}
          ${newestFirst.after(sql, "i", after)}
        ORDER BY i.created_at DESC, i.id DESC
        LIMIT ${limit}`

    /** The name of the record the target row `t` names (null when it is gone). */
    const entityName = sql`CASE t.entity_type
      WHEN 'TOPIC' THEN (SELECT x.name FROM topics x WHERE x.org_id = t.org_id AND x.id = t.entity_id)
      WHEN 'ITEM' THEN (SELECT x.name FROM items x WHERE x.org_id = t.org_id AND x.id = t.entity_id)
      WHEN 'SPACE' THEN (SELECT x.name FROM spaces x WHERE x.org_id = t.org_id AND x.id = t.entity_id)
      WHEN 'CATEGORY' THEN (SELECT x.name FROM categories x WHERE x.org_id = t.org_id AND x.id = t.entity_id)
      WHEN 'CONTENT' THEN (SELECT x.title FROM content x WHERE x.org_id = t.org_id AND x.id = t.entity_id)
    END`

    /**
     * The affected content of target row `t` that `who` can read: a CONTENT
     * target's own record, the evidence of an ITEM, the evidence of a
     * TOPIC's live items; nothing for a SPACE or CATEGORY.
     */
    const affectedContent = (who: IssueReader) =>
      sql`COALESCE((
        SELECT json_agg(json_build_object('id', c.id, 'title', c.title, 'type', c.type) ORDER BY c.title, c.id)
        FROM content c
        WHERE c.org_id = t.org_id AND ${contentVisible(sql, who.reader, "c")} AND c.id IN (
          SELECT t.entity_id WHERE t.entity_type = 'CONTENT'
          UNION
          SELECT e.content_id FROM evidence e WHERE t.entity_type = 'ITEM' AND e.org_id = t.org_id AND e.item_id = t.entity_id
          UNION
          SELECT e.content_id FROM items it JOIN evidence e ON e.org_id = it.org_id AND e.item_id = it.id
          WHERE t.entity_type = 'TOPIC' AND it.org_id = t.org_id AND it.topic_id = t.entity_id AND it.state = 'live')
      ), '[]')`

    /** One readable issue with its readable targets in order, each with its affected content. */
    const find = (orgId: OrganizationId, id: string, who: IssueReader) =>
      sql<IssueDetailRow>`
        SELECT ${columns(who)}, i.description, i.resolution_strategy, i.resolution_note, i.resolved_at,
          COALESCE((
            SELECT json_agg(json_build_object('entityType', t.entity_type, 'entityId', t.entity_id, 'entityName', named.name,
              'content', ${affectedContent(who)}) ORDER BY t.position)
            FROM data_quality_issue_targets t
            CROSS JOIN LATERAL (SELECT ${entityName} AS name) named
            WHERE t.org_id = i.org_id AND t.issue_id = i.id AND named.name IS NOT NULL AND ${targetVisible(sql, who, "t")}
          ), '[]') AS targets
        FROM data_quality_issues i ${assignees}
        WHERE i.org_id = ${orgId} AND i.id = ${id} AND ${issueReadable(sql, who, "i")}`.pipe(Effect.map((rows) => rows[0]))

    return { page, find } as const
  })
}) {}
