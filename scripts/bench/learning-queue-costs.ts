import { performance } from "node:perf_hooks"
import { Data, Effect } from "effect"
import type { Statement } from "./capture.js"
import type { ExplainJson, SqlClient } from "./database.js"
import { get } from "./walk.js"

/**
 * What one learning-queue request costs, in the two measures issue 19 sets
 * targets for: the Node CPU of the request and the database time of every
 * statement it runs.
 */

/** Requests whose Node CPU is measured one by one. */
export interface CpuSamples {
  /** User + system CPU of this process per request, in ms. */
  readonly cpu: ReadonlyArray<number>
  /** Wall time per request, up to the full body, in ms. */
  readonly wall: ReadonlyArray<number>
}

/**
 * `n` GETs of `url`, each timed with a `process.cpuUsage()` delta: the
 * server runs in this process, so that is the server's CPU for the request
 * (edge, token check, rate limit, the queue, the JSON body) plus this
 * client's fetch and whatever garbage collection falls in it. Nothing is
 * captured meanwhile (the statement capture compiles each statement again).
 */
export const cpuPerRequest = async (url: string, token: string, n: number): Promise<CpuSamples> => {
  const cpu: Array<number> = []
  const wall: Array<number> = []
  for (let i = 0; i < n; i++) {
    const before = process.cpuUsage()
    const started = performance.now()
    await get(url, token)
    wall.push(performance.now() - started)
    const used = process.cpuUsage(before)
    cpu.push((used.user + used.system) / 1000)
  }
  return { cpu, wall }
}

/** The database time of one statement: median execution and planning under EXPLAIN (ANALYZE, TIMING OFF). */
export interface StatementTime {
  readonly label: string
  readonly execution: number
  readonly planning: number
}

/** What a statement of a queue request is, from its text. */
const labelOf = (text: string): string =>
  /held AS MATERIALIZED/.test(text)
    ? "queue"
    : /WITH token AS/.test(text)
    ? "token"
    : /INSERT INTO rate_limit_counters/.test(text)
    ? "rate limit"
    : /WITH RECURSIVE line/.test(text)
    ? "person"
    : /FROM topic_learning t WHERE/.test(text)
    ? "topic graph"
    : text.trim().replace(/\s+/g, " ").slice(0, 30)

class RolledBack extends Data.TaggedError("RolledBack")<{ readonly times: ReadonlyArray<StatementTime> }> {}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!
}

/**
 * Every statement of a request run again `runs` times under EXPLAIN
 * (ANALYZE, TIMING OFF), in one transaction that is rolled back (the token
 * check and the rate limit write; run again, they would count requests).
 */
export const statementTimes = (sql: SqlClient, statements: ReadonlyArray<Statement>, runs: number) =>
  sql.withTransaction(
    Effect.gen(function*() {
      const times: Array<StatementTime> = []
      for (const statement of statements) {
        const execution: Array<number> = []
        const planning: Array<number> = []
        for (let run = 0; run < runs; run++) {
          const [plan] = (yield* sql.unsafe<{ "QUERY PLAN": ExplainJson }>(
            `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${statement.text}`,
            [...statement.params]
          ))[0]!["QUERY PLAN"]
          execution.push(plan!["Execution Time"])
          planning.push(plan!["Planning Time"])
        }
        times.push({ label: labelOf(statement.text), execution: median(execution), planning: median(planning) })
      }
      return yield* new RolledBack({ times })
    })
  ).pipe(Effect.catchTag("RolledBack", ({ times }) => Effect.succeed(times)))

/** The database time of a request: the sum of its statements' execution and planning. */
export const databaseTime = (times: ReadonlyArray<StatementTime>) =>
  times.reduce((sum, time) => sum + time.execution + time.planning, 0)
