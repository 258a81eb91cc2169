import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import autocannon from "autocannon"

/** Clock ticks a second, as /proc/PID/stat counts CPU time (`getconf CLK_TCK`). */
export const clockTicks = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

/** utime + stime of a process (all its threads), in clock ticks; undefined once it is gone. */
export const cpuTicks = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after "(comm)": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

/**
 * CPU of each PostgreSQL process of this machine, in clock ticks by pid:
 * the database's work for the requests, with whatever else uses the server
 * at the same time (only indicative on a shared machine).
 */
const postgresTicks = (): Map<number, number> => {
  const ticks = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      if (!stat.includes("(postgres)")) continue
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch {
      // gone meanwhile
    }
  }
  return ticks
}

/** The ticks spent between two snapshots by the processes alive at the second (one started meanwhile counts whole). */
const spent = (before: Map<number, number>, after: Map<number, number>) => {
  let total = 0
  for (const [pid, ticks] of after) total += ticks - (before.get(pid) ?? 0)
  return total
}

export interface Settings {
  readonly rounds: number
  readonly seconds: number
  readonly warmUp: number
  readonly connections: number
}

export interface LoadSpec {
  readonly url: string
  readonly method?: "GET" | "POST"
  readonly body?: string
  readonly headers: Record<string, string>
  /** Authorization headers to rotate through, one per request (the learning queue's per-token limit). */
  readonly rotate?: ReadonlyArray<string>
  readonly connections: number
  readonly seconds: number
}

export interface Measured {
  readonly requests: number
  readonly non2xx: number
  readonly errors: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  /** The server process's CPU per completed request, in microseconds. */
  readonly cpuUs: number
  /** PostgreSQL's CPU per completed request, in microseconds (every postgres process of the machine). */
  readonly dbCpuUs: number
}

let rotation = 0

/**
 * Loads `spec.url` with `connections` keep-alive connections for
 * `seconds` (autocannon: every connection sends its next request when the
 * last one answered), measuring the process `pid`'s CPU over the window.
 */
export const load = async (pid: number, spec: LoadSpec): Promise<Measured> => {
  const rotate = spec.rotate
  const requests = rotate === undefined || rotate.length === 0
    ? undefined
    : [{
      setupRequest: (request: any) => {
        request.headers = { ...request.headers, authorization: rotate[rotation++ % rotate.length] }
        return request
      }
    }]
  const startedAt = process.hrtime.bigint()
  const before = cpuTicks(pid)
  const dbBefore = postgresTicks()
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? "GET",
    headers: spec.headers,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(requests === undefined ? {} : { requests }),
    connections: spec.connections,
    duration: spec.seconds,
    pipelining: 1
  } as autocannon.Options)
  const after = cpuTicks(pid)
  const dbAfter = postgresTicks()
  const elapsed = Number(process.hrtime.bigint() - startedAt) / 1e9
  if (before === undefined || after === undefined) throw new Error(`process ${pid} is gone`)
  const completed = result.requests.total
  const perRequest = (ticks: number) => completed === 0 ? Number.NaN : (ticks / clockTicks) * 1e6 / completed
  return {
    requests: completed,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    rps: completed / elapsed,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: perRequest(after - before),
    dbCpuUs: perRequest(spent(dbBefore, dbAfter))
  }
}
