import { Effect } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { Caller } from "@tks/domain/caller"
import { OrganizationId, UserId } from "@tks/domain/ids"
import { Scope } from "@tks/domain/roles"
import { acmeCallerMatrix, type BadToken, badTokens, type CallerKind, callerKinds } from "./callers.js"
import { once } from "./once.js"
import { callTool, type McpToolClient } from "./mcp.js"
import { raw } from "./server.js"

/**
 * The authorization matrix: for every endpoint of the HTTP contract and
 * every MCP tool, what each caller of the matrix (support/callers.ts: no
 * token, a made-up, an expired and a revoked token, each org role, a team
 * admin, another organization's admin) gets for one probe call. The probe
 * names a record that does not exist (`matrix_unknown` for every path id and
 * required tool id) and sends `{}` as a body, so it writes nothing (but for
 * the directory connection's acts, which need no id: an allowed caller
 * connects, pauses and resumes their own organization's): it shows
 * the authentication and the declared policy (401, 403, a policy's 404) and
 * what an allowed caller gets for an absent record or an empty body (200,
 * 400, 404), never a 500. The people's tokens carry every scope each may
 * hold, so the scoped acts show who the policy lets in, not a missing scope.
 * What each allowed caller then reads or changes is tested per endpoint.
 */
export const matrixCallers = [...badTokens, ...callerKinds] as const
export type MatrixCaller = BadToken | CallerKind

/** A row, one value per caller in `matrixCallers` order. */
type Row<A> = readonly [A, A, A, A, A, A, A, A, A, A, A]
type Outcome = number | "ok" | "FORBIDDEN" | "NOT_FOUND" | "VALIDATION_ERROR"

const rowOf = <A>(values: Row<A>): Readonly<Record<MatrixCaller, A>> =>
  Object.fromEntries(matrixCallers.map((caller, i) => [caller, values[i]])) as Record<MatrixCaller, A>

const U = 401

/**
 * `METHOD path` (as the contract declares it) → the probe's status for:
 * none, invalid, expired, revoked, owner, admin, billingAdmin, viewer,
 * external, teamAdmin, otherOrgAdmin.
 */
const endpointRows: Readonly<Record<string, Row<number>>> = {
  "GET /v1/me": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/teams": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/members": [U, U, U, U, 200, 200, 200, 200, 403, 200, 200],
  "GET /v1/members/progress": [U, U, U, U, 200, 200, 200, 200, 403, 200, 200],
  "GET /v1/members/:id": [U, U, U, U, 404, 404, 404, 404, 403, 404, 404],
  "GET /v1/invitations": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/reporting-lines": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/company-roles": [U, U, U, U, 200, 200, 200, 200, 403, 200, 200],
  "GET /v1/company-roles/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/company-roles/:id/duties": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/third-parties": [U, U, U, U, 200, 200, 200, 200, 403, 200, 200],
  "GET /v1/third-parties/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/third-parties/:id/duties": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/duties": [U, U, U, U, 400, 400, 400, 400, 404, 400, 400],
  "GET /v1/findings": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/org-chart/verification": [U, U, U, U, 200, 200, 200, 200, 403, 200, 200],
  "GET /v1/directory-sync": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/directory-sync/events": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/directory-sync/domains": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "POST /v1/directory-sync/token": [U, U, U, U, 201, 201, 201, 403, 403, 403, 201],
  "POST /v1/directory-sync/pause": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "POST /v1/directory-sync/resume": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/oauth-settings": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/events": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/audit-events": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/content": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/content/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/content/:id/text": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/content/:id/knowledge": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/content/:id/usage": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "POST /v1/documents": [U, U, U, U, 400, 400, 400, 400, 403, 400, 400],
  "POST /v1/documents/from-url": [U, U, U, U, 400, 400, 400, 400, 403, 400, 400],
  "POST /v1/videos/videohost": [U, U, U, U, 400, 400, 400, 400, 403, 400, 400],
  "GET /v1/content-review-requests": [U, U, U, U, 200, 200, 200, 200, 403, 200, 200],
  "GET /v1/content-review-requests/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "POST /v1/content-review-requests/:id/approve": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "POST /v1/content-review-requests/:id/reject": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "POST /v1/content-review-requests/:id/request-changes": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "POST /v1/content-review-requests/:id/cancel": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/issues": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/issues/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/categories": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/categories/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/spaces": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/spaces/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/topics": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/topics/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/items/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/search": [U, U, U, U, 400, 400, 400, 400, 400, 400, 400],
  "GET /v1/maturity": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/category-health": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "POST /v1/narration/synthesize": [U, U, U, U, 400, 400, 400, 400, 403, 400, 400],
  "GET /v1/narration/usage": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/lessons": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/lessons/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/lessons/:id/retraining-policy": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/me/obligations": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/me/enrollments": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/me/pop-quizzes": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/people/:id/progress": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/enrollments/:id/quiz-results": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/pop-quizzes": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "POST /v1/pop-quizzes": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "GET /v1/pop-quizzes/:id": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "POST /v1/lessons/:id/assignments": [U, U, U, U, 400, 400, 400, 403, 403, 400, 400],
  "POST /v1/lessons/:id/unassign": [U, U, U, U, 400, 400, 400, 403, 403, 400, 400],
  "PUT /v1/lessons/:id/retraining-policy": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "POST /v1/knowledge-obligations": [U, U, U, U, 400, 400, 400, 403, 403, 400, 400],
  "POST /v1/retraining-assignments": [U, U, U, U, 400, 400, 400, 403, 403, 400, 400],
  "POST /v1/obligations/:id/waive": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "POST /v1/obligations/:id/cancel": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "POST /v1/obligations/:id/due-date": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "POST /v1/obligations/:id/confirm-review": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "POST /v1/me/lessons/:id/start": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "GET /v1/me/enrollments/:id/quiz": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "POST /v1/me/enrollments/:id/quiz-attempts": [U, U, U, U, 400, 400, 400, 400, 400, 400, 400],
  "POST /v1/me/pop-quizzes/:id/start": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "POST /v1/me/pop-quizzes/:id/answers": [U, U, U, U, 400, 400, 400, 400, 400, 400, 400],
  "GET /v1/me/learning-queue": [U, U, U, U, 200, 200, 200, 200, 200, 200, 200],
  "GET /v1/people/:id/learning-queue": [U, U, U, U, 404, 404, 404, 404, 404, 404, 404],
  "POST /v1/webhook-endpoints": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400],
  "GET /v1/webhook-endpoints": [U, U, U, U, 200, 200, 200, 403, 403, 403, 200],
  "GET /v1/webhook-endpoints/:id": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "PATCH /v1/webhook-endpoints/:id": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "DELETE /v1/webhook-endpoints/:id": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "POST /v1/webhook-endpoints/:id/rotate-secret": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "POST /v1/webhook-endpoints/:id/test": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "GET /v1/webhook-endpoints/:id/deliveries": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "POST /v1/webhook-deliveries/:id/replay": [U, U, U, U, 404, 404, 404, 403, 403, 403, 404],
  "POST /v1/webhook-endpoints/:id/replay": [U, U, U, U, 400, 400, 400, 403, 403, 403, 400]
}

const ok = "ok"
const NF = "NOT_FOUND"
const FB = "FORBIDDEN"

/** Tool name → the probe call's outcome ("ok", a tool error's code, or /mcp's 401), callers as above. */
const toolRows: Readonly<Record<string, Row<Outcome>>> = {
  search_service: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok],
  get_topic: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  get_item: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_categories: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok],
  list_spaces: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok],
  get_space: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_content: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok],
  get_content: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  get_content_text: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  get_content_knowledge: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  get_content_usage: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_content_review_requests: [U, U, U, U, ok, ok, ok, ok, FB, ok, ok],
  get_content_review_request: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_company_roles: [U, U, U, U, ok, ok, ok, ok, FB, ok, ok],
  get_company_role: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_role_duties: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  get_duties: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_third_parties: [U, U, U, U, ok, ok, ok, ok, FB, ok, ok],
  get_third_party: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_third_party_duties: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_lessons: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok],
  get_lesson: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  list_issues: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok],
  get_issue: [U, U, U, U, NF, NF, NF, NF, NF, NF, NF],
  get_maturity: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok],
  list_category_health: [U, U, U, U, ok, ok, ok, ok, ok, ok, ok]
}

export const endpointMatrix = Object.fromEntries(Object.entries(endpointRows).map(([key, row]) => [key, rowOf(row)]))
export const toolMatrix = Object.fromEntries(Object.entries(toolRows).map(([key, row]) => [key, rowOf(row)]))

/** The rows of `matrix` missing for `names`, and the callers each row lacks: `name` or `name: caller`. */
export const missingRows = (matrix: Readonly<Record<string, Readonly<Partial<Record<MatrixCaller, unknown>>>>>, names: ReadonlyArray<string>) =>
  names.flatMap((name) => {
    const row = matrix[name]
    if (row === undefined) return [name]
    return matrixCallers.filter((caller) => row[caller] === undefined).map((caller) => `${name}: ${caller}`)
  })

/**
 * The matrix's tokens: the bad ones of the caller matrix, and for each
 * caller a new token with every scope that person may hold. Imported once
 * per test file.
 */
export const matrixTokensOnce = once(Effect.gen(function*() {
  const matrix = yield* acmeCallerMatrix
  const authenticator = yield* Authenticator
  const scoped = {} as Record<CallerKind, string>
  for (const kind of callerKinds) {
    const organization = kind === "otherOrgAdmin" ? matrix.other : matrix.result
    const input = (scopes: ReadonlyArray<Scope>) => ({
      organizationId: OrganizationId.make(organization.organizationId),
      userId: UserId.make(matrix.userIds[kind]),
      scopes: [...scopes]
    })
    const holdable: Array<Scope> = []
    for (const scope of Scope.literals) {
      const granted = yield* Effect.either(authenticator.issue(Caller.system("test"), input([scope])))
      if (granted._tag === "Right") holdable.push(scope)
    }
    scoped[kind] = (yield* authenticator.issue(Caller.system("test"), input(holdable)).pipe(Effect.orDie)).token
  }
  const tokens: Record<MatrixCaller, string | undefined> = { ...scoped, ...Object.fromEntries(badTokens.map((bad) => [bad, matrix.tokens[bad]])) } as Record<
    MatrixCaller,
    string | undefined
  >
  return tokens
}))

/** The probe of an endpoint: every path id names no record; a body, when the method takes one, is `{}`. */
export const probeEndpoint = (method: string, path: string, token: string | undefined) =>
  raw(method, path.replace(/:(\w+)/g, "matrix_unknown"), { token, ...(method === "GET" ? {} : { body: "{}" }) }).pipe(
    Effect.map((response) => response.status)
  )

/** The probe of a tool: each required input names no record (an enum input takes its first value). */
export const probeTool = (client: McpToolClient, tool: { readonly name: string; readonly inputSchema: unknown }) =>
  Effect.gen(function*() {
    const schema = tool.inputSchema as { readonly required?: ReadonlyArray<string>; readonly properties: Record<string, { enum?: ReadonlyArray<unknown> }> }
    const args: Record<string, unknown> = {}
    for (const name of schema.required ?? []) args[name] = schema.properties[name]?.enum?.[0] ?? "matrix_unknown"
    const result = yield* callTool(client, tool.name, args)
    const outcome: Outcome = result.isError ? result.structured.code : "ok"
    return outcome
  })

/** A tools/call sent to /mcp without a valid token: the transport's status. */
export const probeToolUnauthenticated = (name: string, token: string | undefined) =>
  raw("POST", "/mcp", {
    token,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
    headers: { accept: "application/json, text/event-stream" }
  }).pipe(Effect.map((response) => response.status))
