import { Schema } from "effect"
import { Count, Timestamp } from "./common.js"
import { ContentType } from "./content.js"
import { IssueId } from "./ids.js"
import { PageParams } from "./page-params.js"
import { BooleanFromQuery } from "./pagination.js"

/**
 * Data-quality issues: a problem
 * found in the knowledge graph or the library (two topics that conflict, a
 * duplicate, a stale document ...), who is to look at it, and how it ended.
 * The contract defines no transitions; issues are written by the organization import
 * (and later by whatever finds them), and read here.
 */

export const IssueType = Schema.Literal(
  "CONFLICT",
  "DUPLICATE",
  "MISCLASSIFICATION",
  "STALE",
  "CONTENT_GAP",
  "STRUCTURE_GAP",
  "OTHER"
).annotations({
  description:
    "CONFLICT: records say different things; DUPLICATE: the same knowledge twice; MISCLASSIFICATION: filed in the wrong place; STALE: out of date; CONTENT_GAP: knowledge with no content behind it; STRUCTURE_GAP: the graph lacks a record it needs; OTHER"
})
export type IssueType = typeof IssueType.Type

export const IssueSeverity = Schema.Literal("CRITICAL", "HIGH", "MEDIUM", "LOW")
export type IssueSeverity = typeof IssueSeverity.Type

/** RESOLVED and DISMISSED are closed and carry a resolution. */
export const IssueStatus = Schema.Literal("OPEN", "IN_PROGRESS", "RESOLVED", "DISMISSED")
export type IssueStatus = typeof IssueStatus.Type

export const closedIssueStatuses: ReadonlyArray<IssueStatus> = ["RESOLVED", "DISMISSED"]
export const isClosedIssueStatus = (status: IssueStatus): boolean => closedIssueStatuses.includes(status)

export const ResolutionStrategy = Schema.Literal(
  "MERGED",
  "KEPT_BOTH",
  "UPDATED_CONTENT",
  "ARCHIVED",
  "RECLASSIFIED",
  "NO_CHANGE_NEEDED",
  "OTHER"
).annotations({
  description: [
    "How a closed issue was settled.",
    "MERGED: the duplicate or conflicting records were merged into one;",
    "KEPT_BOTH: the records were judged distinct and both kept;",
    "UPDATED_CONTENT: the content or knowledge was corrected;",
    "ARCHIVED: the outdated record was archived;",
    "RECLASSIFIED: the record was moved to the right category, space or topic;",
    "NO_CHANGE_NEEDED: nothing was wrong (typical of a DISMISSED issue);",
    "OTHER: see the note."
  ].join(" ")
})
export type ResolutionStrategy = typeof ResolutionStrategy.Type

/** What a target names: a graph entity (as duties do) or a content record. */
export const IssueTargetType = Schema.Literal("TOPIC", "ITEM", "SPACE", "CATEGORY", "CONTENT")
export type IssueTargetType = typeof IssueTargetType.Type

export const IssueAssigneeType = Schema.Literal("person", "role")
export type IssueAssigneeType = typeof IssueAssigneeType.Type

export const IssueAssignee = Schema.Struct({
  type: IssueAssigneeType.annotations({ description: "person: a member; role: a company role (every current holder)" }),
  id: Schema.String,
  name: Schema.String
}).annotations({ identifier: "IssueAssignee" })
export type IssueAssignee = typeof IssueAssignee.Type

/** GET /v1/issues: one issue, as listed. */
export const IssueSummary = Schema.Struct({
  id: Schema.String,
  type: IssueType,
  severity: IssueSeverity,
  status: IssueStatus,
  title: Schema.String,
  assignee: Schema.NullOr(IssueAssignee),
  targetCount: Count.annotations({ description: "How many of the issue's targets the caller can read" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  url: Schema.String.annotations({ description: "Web link to the issue (GET /v1/issues/{id})" })
}).annotations({ identifier: "IssueSummary" })
export type IssueSummary = typeof IssueSummary.Type

/** A content record an issue affects, readable by the caller. */
export const AffectedContent = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  type: ContentType,
  url: Schema.String.annotations({ description: "Web link to the content (GET /v1/content/{id})" })
}).annotations({ identifier: "AffectedContent" })
export type AffectedContent = typeof AffectedContent.Type

export const IssueTarget = Schema.Struct({
  entityType: IssueTargetType,
  entityId: Schema.String,
  entityName: Schema.String.annotations({ description: "The entity's name, or the content's title" }),
  content: Schema.Array(AffectedContent).annotations({
    description:
      "The affected content the caller can read: a CONTENT target's own record; for a TOPIC or ITEM the content that is evidence for it; none for a SPACE or CATEGORY"
  })
}).annotations({ identifier: "IssueTarget" })
export type IssueTarget = typeof IssueTarget.Type

export const IssueResolution = Schema.Struct({
  strategy: ResolutionStrategy,
  note: Schema.NullOr(Schema.String),
  resolvedAt: Timestamp
}).annotations({ identifier: "IssueResolution" })
export type IssueResolution = typeof IssueResolution.Type

/** GET /v1/issues/{id}. */
export const IssueDetail = Schema.Struct({
  ...IssueSummary.fields,
  description: Schema.NullOr(Schema.String),
  targets: Schema.Array(IssueTarget).annotations({ description: "In the issue's order, only those the caller can read" }),
  resolution: Schema.NullOr(IssueResolution).annotations({ description: "Set on a closed issue (RESOLVED, DISMISSED); null while open" })
}).annotations({ identifier: "IssueDetail" })
export type IssueDetail = typeof IssueDetail.Type

/**
 * GET /v1/issues parameters. `Schema.typeSchema` of
 * this is the MCP tool's input: plain enums, a boolean and the page fields.
 */
export const IssueListParams = Schema.Struct({
  status: Schema.optional(IssueStatus.annotations({ description: "Only issues in this status" })),
  type: Schema.optional(IssueType.annotations({ description: "Only issues of this type" })),
  severity: Schema.optional(IssueSeverity.annotations({ description: "Only issues of this severity" })),
  assignedToMe: Schema.optional(
    BooleanFromQuery.annotations({
      description: "true lists only issues assigned to the caller, directly or through a company role they hold now"
    })
  ),
  ...PageParams.fields
})
export type IssueListParams = typeof IssueListParams.Type

/** An issue's id in the path. A plain string on the wire, never pattern checked: an id that is not ours is simply absent (404). */
export const IssuePath = Schema.Struct({ id: IssueId })
