import { Effect } from "effect"
import type { Statement } from "./capture.js"
import { type ExplainJson, type SqlClient } from "./database.js"
import { COMMON_WORD, random, SELECTIVE_WORD, TITLE_QUERY, TYPO_QUERY } from "./library-fixture.js"
import { scansOf } from "./plan.js"
import { probe, sample, type Sampled, type Unmeasured } from "./samples.js"
import { median, ms, type Row, summarize, walk } from "./walk.js"

/** Pages of the content list walked (limit=50: the first 5,000 of 20,000). */
const CONTENT_PAGES = 100
/** Issue 6: search answers in under 50 ms of database time with 20,000 content records and 5,000 topics. */
const SEARCH_BUDGET_MS = 50
/** Statements of a search request that do the searching (the token check and rate-limit flushes are left out). */
const SEARCH_SQL = /search_vector|tsquery|ts_rank|ts_headline|similarity|%>|<%/i

export interface ReadsContext {
  readonly base: string
  readonly sql: SqlClient
  /** An organization admin's token, and a plain viewer's (team-only and admin-only content hidden from them). */
  readonly admin: string
  readonly viewer: string | undefined
  readonly topicIds: ReadonlyArray<string>
  readonly samples: number
  /** Print each search statement and its whole plan. */
  readonly explainText: boolean
  readonly progress: (message: string) => void
}

export interface ReadsResult {
  readonly walks: ReadonlyArray<Row>
  readonly sampled: ReadonlyArray<Sampled>
  readonly unmeasured: ReadonlyArray<Unmeasured>
  readonly report: ReadonlyArray<string>
}

const callersOf = ({ admin, viewer }: ReadsContext) => [["admin", admin] as const, ...(viewer === undefined ? [] : [["viewer", viewer] as const])]

/** Runs `measure` when `path` is served; records why not otherwise, and any failure. */
const servedBy = (ctx: ReadsContext, unmeasured: Array<Unmeasured>) => (label: string, path: string, token: string, measure: () => Promise<void>) =>
  Effect.promise(async () => {
    let reason: string | null = null
    try {
      reason = (await probe(ctx.base, path, token))?.reason ?? null
      if (reason === null) await measure()
    } catch (error) {
      reason = `failed: ${error instanceof Error ? error.message : String(error)}`
    }
    if (reason !== null) unmeasured.push({ label, reason })
    ctx.progress(`${label}: ${reason ?? "measured"}`)
  })

/**
 * The search samples (a selective word, a common word and a typo, as an
 * admin and as a viewer), then the database time of the SQL each ran.
 */
export const searchReads = (ctx: ReadsContext) =>
  Effect.gen(function*() {
    const sampled: Array<Sampled> = []
    const unmeasured: Array<Unmeasured> = []
    const report: Array<string> = []
    const ifServed = servedBy(ctx, unmeasured)
    const queries = [["selective", SELECTIVE_WORD], ["common", COMMON_WORD], ["typo", TYPO_QUERY]] as const
    const searched: Array<readonly [string, ReadonlyArray<Statement>]> = []
    for (const [kind, word] of queries) {
      const path = `/v1/search?query=${encodeURIComponent(word)}&limit=10`
      for (const [who, token] of callersOf(ctx)) {
        const label = `search ${kind} "${word}" (${who})`
        yield* ifServed(label, path, token, async () => {
          const [row, statements] = await sample(ctx.base, label, token, ctx.samples, () => path)
          sampled.push(row)
          searched.push([label, statements])
        })
      }
    }
    for (const [label, statements] of searched) report.push(...yield* explainSearch(ctx, label, statements))
    return { walks: [], sampled, unmeasured, report } satisfies ReadsResult
  })

/**
 * The library and knowledge reads of issue 6 over real HTTP: the content
 * list (walks and a title filter), search (a selective word, a common word
 * and a typo, as an admin and as a viewer) with the database time of its
 * SQL, and topic detail over random topics. An endpoint this build does not
 * serve is reported as not available.
 */
export const libraryReads = (ctx: ReadsContext) =>
  Effect.gen(function*() {
    const { base, admin } = ctx
    const walks: Array<Row> = []
    const sampled: Array<Sampled> = []
    const unmeasured: Array<Unmeasured> = []
    const report: Array<string> = []
    const callers = callersOf(ctx)

    const ifServed = servedBy(ctx, unmeasured)

    // Content list: walks, a type filter, a title filter.
    for (const [who, token] of callers) {
      yield* ifServed(`content (${who})`, "/v1/content?limit=1", token, async () => {
        await walk(base, "/v1/content", token, CONTENT_PAGES) // warm-up
        walks.push(summarize(`content (${who})`, [await walk(base, "/v1/content", token, CONTENT_PAGES)]))
      })
    }
    yield* ifServed("content type=video", "/v1/content?type=video&limit=1", admin, async () => {
      await walk(base, "/v1/content?type=video", admin, CONTENT_PAGES)
      walks.push(summarize("content type=video", [await walk(base, "/v1/content?type=video", admin, CONTENT_PAGES)]))
    })
    const titlePath = `/v1/content?query=${encodeURIComponent(TITLE_QUERY)}&limit=50`
    for (const [who, token] of callers) {
      yield* ifServed(`content query="${TITLE_QUERY}" (${who})`, titlePath, token, async () => {
        sampled.push((await sample(base, `content query="${TITLE_QUERY}" (${who})`, token, ctx.samples, () => titlePath))[0])
      })
    }

    const searches = yield* searchReads(ctx)
    sampled.push(...searches.sampled)
    unmeasured.push(...searches.unmeasured)
    report.push(...searches.report)

    // Topic detail over random topics.
    const pickTopic = random(11)
    const topicAt = () => ctx.topicIds[Math.floor(pickTopic() * ctx.topicIds.length)]
    const firstTopic = ctx.topicIds[0]
    if (firstTopic !== undefined) {
      yield* ifServed("topics/{id} (random topics)", `/v1/topics/${firstTopic}`, admin, async () => {
        sampled.push((await sample(base, "topics/{id} (random topics)", admin, ctx.samples, () => `/v1/topics/${topicAt()}`))[0])
      })
    }
    return { walks, sampled, unmeasured, report } satisfies ReadsResult
  })

/**
 * EXPLAIN (ANALYZE) of the searching statements of one request, with the
 * parameters the server bound, three times each (the median counts):
 * planning plus execution time, against the budget.
 */
const explainSearch = (ctx: ReadsContext, label: string, statements: ReadonlyArray<Statement>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const searching = statements.filter((statement) => SEARCH_SQL.test(statement.text) && /^\s*(SELECT|WITH)\b/i.test(statement.text))
    if (searching.length === 0) {
      lines.push(`WARNING: ${label}: no search statement captured (${statements.length} statements); no plan checked`)
      return lines
    }
    let total = 0
    const parts: Array<string> = []
    for (const [i, statement] of searching.entries()) {
      const runs: Array<{ execution: number; planning: number; scans: ReadonlyArray<string> }> = []
      for (let run = 0; run < 3; run++) {
        const explained = yield* ctx.sql.unsafe<{ "QUERY PLAN": ExplainJson }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, [...statement.params]).pipe(
          Effect.map((rows) => rows[0]!["QUERY PLAN"][0]!),
          Effect.either
        )
        if (explained._tag === "Left") {
          lines.push(`WARNING: ${label}: EXPLAIN of statement ${i + 1} failed: ${String(explained.left)}`)
          return lines
        }
        const plan = explained.right
        runs.push({ execution: plan["Execution Time"], planning: plan["Planning Time"], scans: scansOf(plan.Plan) })
      }
      const execution = median(runs.map((run) => run.execution))
      const planning = median(runs.map((run) => run.planning))
      total += execution + planning
      parts.push(
        `    statement ${i + 1}: ${ms(execution)} ms execution + ${ms(planning)} ms planning (span ${ms(statement.ms)} ms); ` +
          `${runs[0]!.scans.filter((scan) => /chapters|topics|content|items/.test(scan)).join(", ") || "no table scan"}`
      )
      if (ctx.explainText) {
        const text = yield* ctx.sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, [...statement.params])
        parts.push(`\n-- ${label}, statement ${i + 1}; parameters ${JSON.stringify(statement.params)}\n${statement.text.trim()}\n`)
        parts.push(text.map((row) => row["QUERY PLAN"]).join("\n"))
      }
    }
    const verdict = total < SEARCH_BUDGET_MS ? `under ${SEARCH_BUDGET_MS} ms: yes` : `WARNING: over the ${SEARCH_BUDGET_MS} ms budget`
    lines.push(`  ${label}: ${searching.length} search statement(s), ${ms(total)} ms of database time (planning + execution, medians of 3): ${verdict}`)
    lines.push(...parts)
    return lines
  })
