import { Effect } from "effect"
import { NotFound } from "@tks/domain/errors"
import type { IssueId } from "@tks/domain/ids"
import type { IssueAssignee, IssueDetail, IssueListParams, IssueSummary } from "@tks/domain/issue"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { newestFirst } from "../common/keyset.js"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { iso } from "../common/time.js"
import type { IssueReader } from "./access.js"
import { type IssueDetailRow, type IssueFilter, type IssueRow, IssuesRepo } from "./repo.js"
import { traced } from "../common/traced.js"

const notFound = () => new NotFound({ message: "No such issue" })

/**
 * Data-quality issues, for HTTP and the
 * MCP tools alike. Every caller passes the policy (policies.issues, reach
 * admins-else-readable); what each one reads follows from the reach, in SQL
 * (issues/access.ts): a caller reaching the organization (an organization
 * admin) every issue and target, anyone else only the issues they can read
 * every target of (so those without targets), and of the affected content
 * only what they can read. An issue they cannot read is absent (404 "No such
 * issue"), from the list, the detail and the tools alike.
 */
export class DataQualityIssues extends Effect.Service<DataQualityIssues>()("@tks/core/DataQualityIssues", {
  effect: Effect.gen(function*() {
    const repo = yield* IssuesRepo
    const links = yield* Links
    const pagination = yield* Pagination

    const whoOf = (access: Access): IssueReader => ({
      userId: access.actor.userId,
      reach: access.reach,
      reader: readerOf(access.actor)
    })

    const assigneeOf = (row: IssueRow): IssueAssignee | null =>
      row.assignee_type === null || row.assignee_id === null || row.assignee_name === null
        ? null
        : { type: row.assignee_type, id: row.assignee_id, name: row.assignee_name }

    const summary = (row: IssueRow): IssueSummary => ({
      id: row.id,
      type: row.type,
      severity: row.severity,
      status: row.status,
      title: row.title,
      assignee: assigneeOf(row),
      targetCount: row.target_count,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      url: links.issue(row.id)
    })

    const detail = (row: IssueDetailRow): IssueDetail => ({
      ...summary(row),
      description: row.description,
      targets: row.targets.map((target) => ({
        entityType: target.entityType,
        entityId: target.entityId,
        entityName: target.entityName,
        content: target.content.map((piece) => ({ ...piece, url: links.content(piece.id) }))
      })),
      resolution: row.resolution_strategy === null || row.resolved_at === null
        ? null
        : { strategy: row.resolution_strategy, note: row.resolution_note, resolvedAt: iso(row.resolved_at) }
    })

    const list = traced("DataQualityIssues.list")(function*(access: Access, params: IssueListParams) {
      const who = whoOf(access)
      const filter: IssueFilter = {
        orgId: access.actor.organizationId,
        status: params.status ?? null,
        type: params.type ?? null,
        severity: params.severity ?? null,
        assignedToMe: params.assignedToMe === true
      }
      return yield* pagination.page({
        // The rows depend on who asks (visibility, assignedToMe), so the cursor is bound to the caller too.
        listing: ["issues", filter, who.userId],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.page(filter, who, after, limit),
        view: summary
      })
    })

    const get = traced("DataQualityIssues.get")(function*(access: Access, id: IssueId) {
      const row = yield* repo.find(access.actor.organizationId, id, whoOf(access))
      return row === undefined ? yield* notFound() : detail(row)
    })

    return { list, get } as const
  }),
  dependencies: [IssuesRepo.Default, Links.Default, Pagination.Default]
}) {}
