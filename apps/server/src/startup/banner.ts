import { Option } from "effect"

/** Demo fixture keys (packages/core/src/demo/fixture.ts) worth a line each. */
const people: ReadonlyArray<readonly [key: string, who: string]> = [
  ["ava", "Ava Thompson, owner"],
  ["ben", "Ben Okafor, admin"],
  ["eve", "Eve Larsen, viewer"],
  ["kai", "Kai Sato, external"]
]

/** The demo's learner (packages/core/src/demo/training.ts): duties, mastery gaps, an assigned lesson, a retraining due. */
const learner = { key: "finn", who: "Finn Walsh, forklift operator" } as const

/** A word of the demo's Warehouse Safety Handbook and of its curated topics: search finds both. */
const searchWord = "forklift"

/** A tools/call of search_service, as one JSON-RPC message. */
const mcpSearch = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "search_service", arguments: { query: searchWord } }
})

/**
 * What a person who just ran `npm start` needs: where it is and ready-to-paste
 * calls. In production (NODE_ENV=production) it names no token, even when the
 * demo organization exists: logs are kept and shipped, tokens must not be.
 */
export const banner = (
  baseUrl: string,
  tokens: Option.Option<Record<string, string>>,
  options: { readonly production: boolean }
): string => {
  const lines = [
    "",
    "Training and Knowledge Service is up.",
    `  API:      ${baseUrl}/v1`,
    `  Docs:     ${baseUrl}/docs`,
    `  OpenAPI:  ${baseUrl}/v1/openapi.json`,
    `  Health:   ${baseUrl}/health   Ready: ${baseUrl}/ready`,
    `  MCP:      ${baseUrl}/mcp (Streamable HTTP, bearer token; the README has client settings)`,
    ""
  ]
  if (options.production && Option.isSome(tokens)) {
    lines.push("The demo organization exists; its tokens are not printed when NODE_ENV=production.", "")
    return lines.join("\n")
  }
  if (Option.isNone(tokens)) {
    lines.push("Create a token with: pnpm cli token create --org <orgId> --user <userId> --scopes content:write", "")
    return lines.join("\n")
  }
  lines.push("Demo organization tokens (Acme Logistics):")
  for (const [key, who] of people) {
    const token = tokens.value[key]
    if (token !== undefined) lines.push(`  # as ${who}`, `  curl -s -H 'Authorization: Bearer ${token}' ${baseUrl}/v1/me`)
  }
  const admin = tokens.value.ben ?? tokens.value.ava
  if (admin !== undefined) {
    lines.push(
      `  curl -s -H 'Authorization: Bearer ${admin}' '${baseUrl}/v1/members?limit=5'`,
      `  curl -s -H 'Authorization: Bearer ${admin}' ${baseUrl}/v1/company-roles`,
      `  curl -s -H 'Authorization: Bearer ${admin}' ${baseUrl}/v1/findings`,
      "  # the library and its knowledge: the demo documents are processed in the first seconds after the first start",
      `  curl -s -H 'Authorization: Bearer ${admin}' '${baseUrl}/v1/content?limit=5'`,
      `  curl -s -H 'Authorization: Bearer ${admin}' '${baseUrl}/v1/search?query=${searchWord}'`,
      `  curl -s -H 'Authorization: Bearer ${admin}' ${baseUrl}/v1/categories`,
      "  # narration: MP3 (base64) with word timings, against the month's allowance",
      `  curl -s -H 'Authorization: Bearer ${admin}' -H 'content-type: application/json' -d '{"text": "Welcome to Acme Logistics."}' ${baseUrl}/v1/narration/synthesize`,
      `  curl -s -H 'Authorization: Bearer ${admin}' ${baseUrl}/v1/narration/usage`,
      "  # the tools for AI assistants (MCP): one call, as an MCP client sends it",
      `  curl -s -H 'Authorization: Bearer ${admin}' -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -d '${mcpSearch}' ${baseUrl}/mcp`
    )
  }
  const learnerToken = tokens.value[learner.key]
  if (learnerToken !== undefined) {
    lines.push(
      `  # training, as ${learner.who}: what to learn next, what is owed, lessons taken`,
      `  curl -s -H 'Authorization: Bearer ${learnerToken}' ${baseUrl}/v1/me/learning-queue`,
      `  curl -s -H 'Authorization: Bearer ${learnerToken}' ${baseUrl}/v1/me/obligations`,
      `  curl -s -H 'Authorization: Bearer ${learnerToken}' ${baseUrl}/v1/me/enrollments`
    )
  }
  lines.push("")
  return lines.join("\n")
}
