import type { Measured } from "./compare-load.js"
import type { HotEndpoint } from "./hot-endpoints.js"
import { median, table } from "./walk.js"

/** Issue 19's targets, side by side in one run. */
export const TARGETS = {
  database: { cpu: 1.6, rps: 0.85, p99: 1.5 },
  health: { cpu: 4 },
  mcp: { cpu: 1.3 }
} as const

export interface EndpointRounds {
  readonly endpoint: HotEndpoint
  readonly ours: ReadonlyArray<Measured>
  readonly reference: ReadonlyArray<Measured>
}

export interface Summary {
  readonly cpuUs: number
  readonly dbCpuUs: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly requests: number
  readonly non2xx: number
  readonly errors: number
}

/** Medians over the rounds; counts summed. */
export const summarize = (rounds: ReadonlyArray<Measured>): Summary => ({
  cpuUs: median(rounds.map((r) => r.cpuUs)),
  dbCpuUs: median(rounds.map((r) => r.dbCpuUs)),
  rps: median(rounds.map((r) => r.rps)),
  p50: median(rounds.map((r) => r.p50)),
  p99: median(rounds.map((r) => r.p99)),
  requests: rounds.reduce((sum, r) => sum + r.requests, 0),
  non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  errors: rounds.reduce((sum, r) => sum + r.errors, 0)
})

export interface Ratios {
  readonly cpu: number
  readonly rps: number
  readonly p99: number
  /** Per target: whether the ratio meets it; absent where the endpoint has no such target. */
  readonly pass: { readonly cpu: boolean; readonly rps?: boolean; readonly p99?: boolean }
}

export const ratiosOf = (kind: HotEndpoint["kind"], ours: Summary, reference: Summary): Ratios => {
  const cpu = ours.cpuUs / reference.cpuUs
  const rps = ours.rps / reference.rps
  const p99 = ours.p99 / reference.p99
  return kind === "health"
    ? { cpu, rps, p99, pass: { cpu: cpu <= TARGETS.health.cpu } }
    : { cpu, rps, p99, pass: { cpu: cpu <= TARGETS.database.cpu, rps: rps >= TARGETS.database.rps, p99: p99 <= TARGETS.database.p99 } }
}

const n0 = (value: number) => Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "?"
const n1 = (value: number) => Number.isFinite(value) ? value.toFixed(1) : "?"
const mark = (ratio: number, pass: boolean | undefined, target: string) =>
  `${Number.isFinite(ratio) ? ratio.toFixed(2) : "?"}x${pass === undefined ? "" : pass ? " ok" : ` MISS (${target})`}`

export const endpointTable = (rows: ReadonlyArray<{ readonly label: string; readonly ours: Summary; readonly reference: Summary; readonly ratios: Ratios }>) =>
  table(
    ["endpoint", "CPU µs/req ours/ref", "CPU ratio", "req/s ours/ref", "req/s ratio", "p50 ms ours/ref", "p99 ms ours/ref", "p99 ratio", "DB µs/req ours/ref", "non-2xx"],
    rows.map(({ label, ours, ratios, reference }) => {
      const health = ratios.pass.rps === undefined
      return [
        label,
        `${n0(ours.cpuUs)} / ${n0(reference.cpuUs)}`,
        mark(ratios.cpu, ratios.pass.cpu, `≤ ${health ? TARGETS.health.cpu : TARGETS.database.cpu}x`),
        `${n0(ours.rps)} / ${n0(reference.rps)}`,
        mark(ratios.rps, ratios.pass.rps, `≥ ${TARGETS.database.rps}x`),
        `${n1(ours.p50)} / ${n1(reference.p50)}`,
        `${n1(ours.p99)} / ${n1(reference.p99)}`,
        mark(ratios.p99, ratios.pass.p99, `≤ ${TARGETS.database.p99}x`),
        `${n0(ours.dbCpuUs)} / ${n0(reference.dbCpuUs)}`,
        ours.non2xx + reference.non2xx + ours.errors + reference.errors === 0 ? "0" : `${ours.non2xx}+${ours.errors} / ${reference.non2xx}+${reference.errors}`
      ]
    })
  )

export const mcpLine = (tool: string, twin: string, mcp: Summary, http: Summary) => {
  const ratio = mcp.cpuUs / http.cpuUs
  return `MCP tools/call ${tool} against its HTTP twin ${twin} on our server: CPU ${n0(mcp.cpuUs)} / ${n0(http.cpuUs)} µs per request = ` +
    `${mark(ratio, ratio <= TARGETS.mcp.cpu, `≤ ${TARGETS.mcp.cpu}x`)}; req/s ${n0(mcp.rps)} / ${n0(http.rps)}; p99 ${n1(mcp.p99)} / ${n1(http.p99)} ms` +
    (mcp.non2xx + http.non2xx + mcp.errors + http.errors === 0 ? "" : `; WARNING: ${mcp.non2xx + mcp.errors} / ${http.non2xx + http.errors} failed requests`)
}
