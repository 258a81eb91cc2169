import { RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import { IssueId } from "@tks/domain/ids"
import { IssueDetail, IssueListParams, IssueSummary } from "@tks/domain/issue"
import { CategoryHealth, Maturity, MaturityParams } from "@tks/domain/maturity"
import { List, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { IdInput, inputOf, NoInput, tool, ToolAuthorization } from "./tool.js"

/** The health of the knowledge base: data-quality issues and maturity. */
export class QualityTools extends RpcGroup.make(
  tool("list_issues", {
    title: "List data-quality issues",
    description:
      "Data-quality issues found in the knowledge base (conflicts, duplicates, misclassifications, stale or missing knowledge), most recent first. Filters: status (OPEN, IN_PROGRESS, RESOLVED, DISMISSED), type (CONFLICT, DUPLICATE, MISCLASSIFICATION, STALE, CONTENT_GAP, STRUCTURE_GAP, OTHER), severity (CRITICAL, HIGH, MEDIUM, LOW), assignedToMe (assigned to the caller directly or to a company role they hold now). Only issues the caller can see: organization admins see all; others only those whose every target they can read (being assigned one does not change that). Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). For one issue's targets and resolution use get_issue.",
    payload: inputOf(IssueListParams),
    success: Page(IssueSummary),
    policy: policies.issues.list
  }),
  tool("get_issue", {
    title: "Read a data-quality issue",
    description:
      "One data-quality issue: its description, its targets (topics, items, spaces, categories or content) each with the affected content the caller can read, its assignee, and for a closed issue (RESOLVED, DISMISSED) the resolution strategy, note and date. Find ids with list_issues.",
    payload: Schema.Struct({ issueId: IdInput(IssueId, "The issue's id, e.g. from list_issues") }),
    success: IssueDetail,
    policy: policies.issues.get
  }),
  tool("get_maturity", {
    title: "Assess knowledge maturity",
    description:
      "How mature the documented knowledge is, organization-wide or for one category (`categorySlug`, one of the 14 slugs; omit for the whole organization): a level from UNDOCUMENTED through INITIAL, DEFINED and MANAGED to OPTIMIZED, the signals it is computed from (topic and item counts, evidence, ownership, training and relation coverage, freshness; each with its target and whether it is met), and recommendations ranked by what would raise the level first. Counts only what the caller can read. To compare every category at once, use list_category_health.",
    payload: inputOf(MaturityParams),
    success: Maturity,
    policy: policies.maturity.get
  }),
  tool("list_category_health", {
    title: "List the health of every category",
    description:
      "All 14 categories, in their fixed order, each with its maturity level (null when it has too few readable topics to score) and its topic count. Use get_maturity with a category's slug for its signals and recommendations.",
    payload: NoInput,
    success: List(CategoryHealth),
    policy: policies.maturity.categoryHealth
  })
).middleware(ToolAuthorization) {}
