import type { ImportResult } from "@tks/core/org-import/schema"

/** Every read-only tool, by name. */
export const specTools: ReadonlyArray<string> = [
  "search_service", "get_topic", "get_item", "get_content", "get_content_text", "get_duties", "list_issues", "get_issue",
  "get_content_knowledge", "get_content_usage", "list_third_parties", "get_third_party", "list_third_party_duties",
  "list_role_duties", "list_categories", "list_spaces", "get_space", "list_content", "list_lessons", "get_lesson",
  "list_company_roles", "get_company_role", "list_content_review_requests", "get_content_review_request", "get_maturity",
  "list_category_health"
]

/** A tool call and the HTTP request that must give the same answer (same data, same rules). */
export interface ToolCase {
  readonly tool: string
  readonly args: Record<string, unknown>
  readonly http: string
}

const id = (record: Record<string, string>, key: string) => {
  const value = record[key]
  if (value === undefined) throw new Error(`The fixture has no ${key}`)
  return value
}

/**
 * One call of every tool against acme (@tks/core/testing/organizations),
 * each with its HTTP twin. Ids are chosen so that the callers of the matrix
 * differ: some records only admins read, one is on a team the viewer is on.
 */
export const toolCases = (acme: ImportResult): ReadonlyArray<ToolCase> => {
  const { ids } = acme
  const topic = id(ids.topics, "deploy")
  const role = id(ids.companyRoles, "eng")
  const content = id(ids.content, "deployGuide")
  return [
    { tool: "search_service", args: { query: "deploy", limit: 5 }, http: "/v1/search?query=deploy&limit=5" },
    { tool: "search_service", args: { query: "rotation", types: ["topic"] }, http: "/v1/search?query=rotation&types=topic" },
    { tool: "get_topic", args: { topicId: topic }, http: `/v1/topics/${topic}` },
    { tool: "get_topic", args: { topicId: id(ids.topics, "keys") }, http: `/v1/topics/${id(ids.topics, "keys")}` },
    { tool: "get_item", args: { itemId: id(ids.items, "canaryMetrics") }, http: `/v1/items/${id(ids.items, "canaryMetrics")}` },
    { tool: "list_categories", args: {}, http: "/v1/categories" },
    { tool: "list_spaces", args: { categorySlug: "engineering" }, http: "/v1/spaces?categorySlug=engineering" },
    { tool: "get_space", args: { spaceId: id(ids.spaces, "runbooks") }, http: `/v1/spaces/${id(ids.spaces, "runbooks")}` },
    { tool: "list_content", args: { limit: 3 }, http: "/v1/content?limit=3" },
    { tool: "list_content", args: { query: "deployment", type: "document" }, http: "/v1/content?query=deployment&type=document" },
    { tool: "get_content", args: { contentId: content }, http: `/v1/content/${content}` },
    { tool: "get_content_text", args: { contentId: content }, http: `/v1/content/${content}/text` },
    { tool: "get_content_knowledge", args: { contentId: content }, http: `/v1/content/${content}/knowledge` },
    { tool: "get_content_usage", args: { contentId: content }, http: `/v1/content/${content}/usage` },
    { tool: "get_content", args: { contentId: id(ids.content, "vaultPolicy") }, http: `/v1/content/${id(ids.content, "vaultPolicy")}` },
    { tool: "list_content_review_requests", args: {}, http: "/v1/content-review-requests" },
    {
      tool: "get_content_review_request",
      args: { requestId: id(ids.reviewRequests, "pendingReq") },
      http: `/v1/content-review-requests/${id(ids.reviewRequests, "pendingReq")}`
    },
    { tool: "list_company_roles", args: { query: "e", limit: 4 }, http: "/v1/company-roles?query=e&limit=4" },
    { tool: "get_company_role", args: { companyRoleId: role }, http: `/v1/company-roles/${role}` },
    { tool: "list_role_duties", args: { companyRoleId: role }, http: `/v1/company-roles/${role}/duties` },
    { tool: "list_role_duties", args: { companyRoleId: role, entityType: "ITEM", limit: 2 }, http: `/v1/company-roles/${role}/duties?entityType=ITEM&limit=2` },
    { tool: "get_duties", args: { entityType: "ITEM", entityId: id(ids.items, "canaryMetrics") }, http: `/v1/duties?entityType=ITEM&entityId=${id(ids.items, "canaryMetrics")}` },
    { tool: "get_duties", args: { entityType: "TOPIC", entityId: id(ids.topics, "keys") }, http: `/v1/duties?entityType=TOPIC&entityId=${id(ids.topics, "keys")}` },
    { tool: "list_third_parties", args: {}, http: "/v1/third-parties" },
    { tool: "get_third_party", args: { thirdPartyId: id(ids.thirdParties, "auditor") }, http: `/v1/third-parties/${id(ids.thirdParties, "auditor")}` },
    {
      tool: "list_third_party_duties",
      args: { thirdPartyId: id(ids.thirdParties, "auditor"), limit: 2 },
      http: `/v1/third-parties/${id(ids.thirdParties, "auditor")}/duties?limit=2`
    },
    { tool: "list_lessons", args: {}, http: "/v1/lessons" },
    { tool: "get_lesson", args: { lessonId: id(ids.lessons, "onboarding") }, http: `/v1/lessons/${id(ids.lessons, "onboarding")}` },
    { tool: "get_lesson", args: { lessonId: id(ids.lessons, "incident") }, http: `/v1/lessons/${id(ids.lessons, "incident")}` },
    { tool: "list_issues", args: {}, http: "/v1/issues" },
    { tool: "list_issues", args: { status: "OPEN", assignedToMe: true }, http: "/v1/issues?status=OPEN&assignedToMe=true" },
    { tool: "list_issues", args: { severity: "CRITICAL", type: "STALE", limit: 1 }, http: "/v1/issues?severity=CRITICAL&type=STALE&limit=1" },
    { tool: "get_issue", args: { issueId: id(ids.issues, "oncallGap") }, http: `/v1/issues/${id(ids.issues, "oncallGap")}` },
    { tool: "get_issue", args: { issueId: id(ids.issues, "secretsStale") }, http: `/v1/issues/${id(ids.issues, "secretsStale")}` },
    { tool: "get_maturity", args: {}, http: "/v1/maturity" },
    { tool: "get_maturity", args: { categorySlug: "engineering" }, http: "/v1/maturity?categorySlug=engineering" },
    { tool: "list_category_health", args: {}, http: "/v1/category-health" }
  ]
}
