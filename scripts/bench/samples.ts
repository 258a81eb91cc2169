import { capturing, type Statement } from "./capture.js"
import { get, ms } from "./walk.js"

/**
 * Repeated single requests (search, topic detail, a filtered first page):
 * latency percentiles over real HTTP, and the time the server spent in SQL
 * for each request (the sum of its `sql.execute` spans: pool checkout, round
 * trip and the database's work, the token check included).
 */
export interface Sampled {
  readonly label: string
  readonly samples: number
  /** Rows in the answer (the median over the samples). */
  readonly results: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly sqlP50: number
  readonly sqlP95: number
}

/** A row the bench could not measure: the endpoint is not served here, or it failed. */
export interface Unmeasured {
  readonly label: string
  readonly reason: string
}

export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

/** The rows of a list or search answer whatever the envelope calls them, or a record's items (topic detail). */
export const rowsOf = (body: any): ReadonlyArray<unknown> =>
  Array.isArray(body?.data)
    ? body.data
    : Array.isArray(body?.results)
    ? body.results
    : Array.isArray(body?.items)
    ? body.items
    : Array.isArray(body)
    ? body
    : []

/**
 * Whether `path` is served: a 404 whose message is the router's "No route
 * for …" means the endpoint does not exist on this branch (another error
 * is the endpoint's own answer, and a failure worth seeing).
 */
export const probe = async (base: string, path: string, token: string): Promise<Unmeasured | null> => {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
  const text = await response.text()
  if (response.status === 200) return null
  if (response.status === 404 && /No route for/.test(text)) return { label: path, reason: "not available (no route on this build)" }
  return { label: path, reason: `answered ${response.status}: ${text.slice(0, 200)}` }
}

/** Warm-up requests before the timed ones. */
export const WARM_UP = 5
/**
 * A row stops sampling once its timed requests have taken this long (and at
 * least MIN_SAMPLES ran): a slow endpoint is reported, not waited on for an hour.
 */
const ROW_BUDGET_MS = 30_000
const MIN_SAMPLES = 5

/**
 * Up to `samples` timed GETs of `pathAt(i)` after WARM_UP untimed ones,
 * fewer when a row's time budget runs out. Returns the statements of the
 * last timed request as well.
 */
export const sample = async (
  base: string,
  label: string,
  token: string,
  samples: number,
  pathAt: (i: number) => string
): Promise<readonly [Sampled, ReadonlyArray<Statement>]> => {
  for (let i = 0; i < WARM_UP; i++) await get(`${base}${pathAt(i)}`, token)
  const latencies: Array<number> = []
  const sqlTimes: Array<number> = []
  const counts: Array<number> = []
  let last: ReadonlyArray<Statement> = []
  let spent = 0
  for (let i = 0; i < samples && (i < MIN_SAMPLES || spent < ROW_BUDGET_MS); i++) {
    const path = pathAt(WARM_UP + i)
    const [{ body, ms: took }, statements] = await capturing(() => get(`${base}${path}`, token))
    latencies.push(took)
    spent += took
    sqlTimes.push(statements.reduce((sum, statement) => sum + statement.ms, 0))
    counts.push(rowsOf(body).length)
    last = statements
  }
  return [{
    label,
    samples: latencies.length,
    results: percentile(counts, 50),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    sqlP50: percentile(sqlTimes, 50),
    sqlP95: percentile(sqlTimes, 95)
  }, last] as const
}

export const sampledCells = (row: Sampled) => [
  row.label,
  String(row.samples),
  String(row.results),
  ms(row.p50),
  ms(row.p95),
  ms(row.p99),
  ms(row.sqlP50),
  ms(row.sqlP95)
]
export const sampledHeader = ["request", "samples", "rows", "p50", "p95", "p99", "SQL p50", "SQL p95"]
