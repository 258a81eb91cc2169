import { performance } from "node:perf_hooks"
import { modernEnvelope } from "../../apps/server/test/support/mcp-envelope.js"
import { get, ms, table } from "./walk.js"
import { percentile } from "./samples.js"

/** Issue 9: a tool call over MCP costs at most this much more than its HTTP twin (p50 against p50). */
const MCP_BUDGET_RATIO = 1.3
const WARM_UP = 10

export interface ToolsContext {
  readonly base: string
  readonly token: string
  readonly roleId: string | undefined
  readonly samples: number
  readonly progress: (message: string) => void
}

interface Pair {
  readonly label: string
  readonly http: string
  readonly tool: string
  readonly args: Record<string, unknown>
}

let rpcId = 0

const envelope = modernEnvelope("bench")

/** One MCP `tools/call` as a 2026-07-28 client sends it (no handshake; the envelope in `_meta`): timed to its full body. */
const callTool = async (base: string, token: string, tool: string, args: Record<string, unknown>) => {
  const started = performance.now()
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "accept-encoding": process.env["BENCH_ENCODING"] ?? "identity",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": tool
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name: tool, arguments: args, _meta: envelope } })
  })
  const body = (await response.json()) as { result?: { isError?: boolean; content?: ReadonlyArray<{ text?: string }> } }
  const took = performance.now() - started
  if (response.status !== 200 || body.result === undefined || body.result.isError === true) {
    throw new Error(`${tool} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`)
  }
  return took
}

/**
 * `tools/call` of search_service and list_role_duties next to their HTTP
 * twins (GET /v1/search, GET /v1/company-roles/{id}/duties), same token,
 * same arguments. Requests alternate HTTP and MCP so both see the same
 * machine; p50 of each and their ratio against the 1.3x budget.
 */
export const toolsBench = async (ctx: ToolsContext): Promise<ReadonlyArray<string>> => {
  const pairs: Array<Pair> = [
    { label: "search_service \"hydrant\"", http: "/v1/search?query=hydrant", tool: "search_service", args: { query: "hydrant" } },
    { label: "search_service \"shipment\"", http: "/v1/search?query=shipment", tool: "search_service", args: { query: "shipment" } },
    ...(ctx.roleId === undefined ? [] : [{
      label: "list_role_duties page 1",
      http: `/v1/company-roles/${ctx.roleId}/duties`,
      tool: "list_role_duties",
      args: { companyRoleId: ctx.roleId }
    }])
  ]
  const rows: Array<ReadonlyArray<string>> = []
  const verdicts: Array<string> = []
  for (const pair of pairs) {
    for (let i = 0; i < WARM_UP; i++) {
      await get(`${ctx.base}${pair.http}`, ctx.token)
      await callTool(ctx.base, ctx.token, pair.tool, pair.args)
    }
    const http: Array<number> = []
    const mcp: Array<number> = []
    for (let i = 0; i < ctx.samples; i++) {
      http.push((await get(`${ctx.base}${pair.http}`, ctx.token)).ms)
      mcp.push(await callTool(ctx.base, ctx.token, pair.tool, pair.args))
    }
    const ratio = percentile(mcp, 50) / percentile(http, 50)
    rows.push([pair.label, String(ctx.samples), ms(percentile(http, 50)), ms(percentile(mcp, 50)), ms(percentile(http, 95)), ms(percentile(mcp, 95)), `${ratio.toFixed(2)}x`])
    verdicts.push(`${pair.label}: MCP p50 is ${ratio.toFixed(2)}x HTTP p50 (budget ${MCP_BUDGET_RATIO}x): ${ratio <= MCP_BUDGET_RATIO ? "within" : "OVER"}`)
    ctx.progress(verdicts.at(-1)!)
  }
  return [
    `\nMCP tools/call against the HTTP twin, in ms (${WARM_UP} warm-up pairs, then ${ctx.samples} alternating pairs; organization admin token):\n`,
    table(["call", "samples", "HTTP p50", "MCP p50", "HTTP p95", "MCP p95", "MCP/HTTP p50"], rows),
    ...verdicts
  ]
}
