import { isClosedIssueStatus, type IssueTargetType } from "@tks/domain/issue"
import { newId } from "../common/ids.js"
import type { PlanContext, Row } from "./plan-types.js"
import type { FixtureIssueTarget } from "./schema-issues.js"

/** data_quality_issues and data_quality_issue_targets (migration 0013). */
export const planIssues = (ctx: PlanContext, categoryIds: ReadonlyMap<string, string>) => {
  const { fixture, keys, organizationId: org_id, now, at } = ctx
  const issues: Array<Row> = []
  const targets: Array<Row> = []

  const targetOf = (target: FixtureIssueTarget, path: string): readonly [IssueTargetType, string | undefined] => {
    if ("category" in target) {
      const id = categoryIds.get(target.category)
      if (id === undefined) keys.problem(`${path}.category`, `unknown category "${target.category}"`)
      return ["CATEGORY", id]
    }
    return "topic" in target ? ["TOPIC", keys.ref("topic", target.topic, `${path}.topic`)]
      : "item" in target ? ["ITEM", keys.ref("item", target.item, `${path}.item`)]
      : "space" in target ? ["SPACE", keys.ref("space", target.space, `${path}.space`)]
      : ["CONTENT", keys.ref("content", target.content, `${path}.content`)]
  }

  fixture.issues.forEach((issue, i) => {
    const path = at("issues", i)
    const id = (issue.key === undefined ? undefined : keys.ref("issue", issue.key, `${path}.key`)) ?? newId("issue")
    const closed = isClosedIssueStatus(issue.status)
    const resolution = issue.resolution
    if (closed && resolution === undefined) keys.problem(`${path}.resolution`, `a ${issue.status} issue needs a resolution`)
    if (!closed && resolution !== undefined) keys.problem(`${path}.resolution`, `an ${issue.status} issue has no resolution`)
    const createdAt = issue.createdAt ?? now
    const updatedAt = issue.updatedAt ?? createdAt
    const assignee = issue.assignee
    issues.push({
      org_id,
      id,
      type: issue.type,
      severity: issue.severity,
      status: issue.status,
      title: issue.title,
      description: issue.description,
      assignee_user_id: assignee !== undefined && "person" in assignee
        ? keys.ref("person", assignee.person, `${path}.assignee.person`) ?? null
        : null,
      assignee_role_id: assignee !== undefined && "role" in assignee
        ? keys.ref("companyRole", assignee.role, `${path}.assignee.role`) ?? null
        : null,
      resolution_strategy: closed ? resolution?.strategy ?? null : null,
      resolution_note: closed ? resolution?.note ?? null : null,
      resolved_at: closed && resolution !== undefined ? resolution.resolvedAt ?? updatedAt : null,
      created_at: createdAt,
      updated_at: updatedAt
    })
    const seen = new Map<string, number>()
    issue.targets.forEach((target, position) => {
      const targetPath = `${path}.targets[${position}]`
      const [entityType, entityId] = targetOf(target, targetPath)
      if (entityId === undefined) return
      const first = seen.get(`${entityType}:${entityId}`)
      if (first !== undefined) {
        keys.problem(targetPath, `the same record as targets[${first}]`)
        return
      }
      seen.set(`${entityType}:${entityId}`, position)
      targets.push({ org_id, issue_id: id, position, entity_type: entityType, entity_id: entityId })
    })
  })

  return { issues, targets }
}
