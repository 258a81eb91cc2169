import { Effect, Exit, Scope } from "effect"
import pg from "pg"
import { modernEnvelope } from "../../apps/server/test/support/mcp-envelope.js"
import { localIssuer } from "../../apps/server/test/support/oauth-issuer.js"
import { type LoadSpec, load, type Measured, type Settings } from "./compare-load.js"
import type { Running } from "./compare-processes.js"
import type { Imported } from "./compare-setup.js"

export interface McpRounds {
  readonly tool: string
  readonly twin: string
  /** tools/call on /mcp with the admin's access token. */
  readonly mcp: ReadonlyArray<Measured>
  /** The same call on the organization's /mcp/{organizationId}, signed in with a JWT of its identity provider. */
  readonly jwt: ReadonlyArray<Measured>
  readonly http: ReadonlyArray<Measured>
}

const envelope = modernEnvelope("bench")

/** A 2026-07-28 `tools/call` of list_role_duties, as the SDK v2 client sends it (envelope in `_meta`, the three headers). */
const toolCall = (url: string, authorization: string, roleId: string, settings: Settings): LoadSpec => ({
  url,
  method: "POST",
  headers: {
    authorization,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "accept-encoding": "identity",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "list_role_duties"
  },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_role_duties", arguments: { companyRoleId: roleId }, _meta: envelope } }),
  connections: settings.connections,
  seconds: settings.seconds
})

const probe = async (name: string, spec: LoadSpec) => {
  const response = await fetch(spec.url, { method: spec.method ?? "GET", headers: spec.headers, body: spec.body ?? null })
  const answer = await response.text()
  if (response.status !== 200 || answer.includes("\"isError\":true")) throw new Error(`${name} answered ${response.status}: ${answer.slice(0, 300)}`)
}

/**
 * `tools/call` of list_role_duties over MCP (2026-07-28, stateless) against
 * its HTTP twin GET /v1/company-roles/{id}/duties, all on our server,
 * alternating as the endpoints do: once on /mcp with the admin's access
 * token, and once on the organization's /mcp/{organizationId} with an
 * access token of its identity provider (a local issuer made here, named
 * in the organization's OAuth settings: the JWT's signature, issuer,
 * audience and lifetime are checked on every request, against the issuer's
 * key set fetched once).
 */
export const mcpAgainstTwin = async (
  ours: Running,
  imported: Imported,
  settings: Settings,
  databaseUrl: string,
  publicUrl: string,
  progress: (message: string) => void
): Promise<McpRounds> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const issuer = await Effect.runPromise(Scope.extend(localIssuer("bench"), scope))
    const database = new pg.Client({ connectionString: databaseUrl })
    await database.connect()
    try {
      await database.query(
        "INSERT INTO oauth_settings (org_id, issuer, audience, person_claim, scope_map) VALUES ($1, $2, NULL, 'email', NULL)",
        [imported.organizationId, issuer.issuer]
      )
    } finally {
      await database.end()
    }
    const resource = `${publicUrl}/mcp/${imported.organizationId}`
    const jwt = await Effect.runPromise(issuer.sign({ aud: resource, email: imported.adminEmail }, { expiresIn: "2h" }))
    const sides = {
      mcp: toolCall(`${ours.url}/mcp`, `Bearer ${imported.admin}`, imported.roleId, settings),
      jwt: toolCall(`${ours.url}/mcp/${imported.organizationId}`, `Bearer ${jwt}`, imported.roleId, settings),
      http: {
        url: `${ours.url}/v1/company-roles/${imported.roleId}/duties`,
        headers: { authorization: `Bearer ${imported.admin}`, "accept-encoding": "identity" },
        connections: settings.connections,
        seconds: settings.seconds
      } satisfies LoadSpec
    }
    for (const [name, spec] of Object.entries(sides)) await probe(name, spec)
    if (settings.warmUp > 0) for (const spec of Object.values(sides)) await load(ours.pid, { ...spec, seconds: settings.warmUp })
    const rounds = { mcp: [] as Array<Measured>, jwt: [] as Array<Measured>, http: [] as Array<Measured> }
    const orders = [["mcp", "jwt", "http"], ["http", "mcp", "jwt"], ["jwt", "http", "mcp"]] as const
    for (let round = 0; round < settings.rounds; round++) {
      for (const side of orders[round % orders.length]!) rounds[side].push(await load(ours.pid, sides[side]))
    }
    progress("MCP tools/call (access token, and JWT) against its HTTP twin measured")
    return { tool: "list_role_duties", twin: "GET /v1/company-roles/{id}/duties", ...rounds }
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
