/**
 * `pnpm bench [--database-url URL] [--walks N] [--no-analyze] [--explain] [--people N] [--roles N]`
 *
 * 1. Generates a 20,000-person / 500-role organization (import-fixture.ts)
 *    and imports it through FixtureImporter into a fresh database: in-memory
 *    embedded PGlite by default, or a new `tks_test_*` database on the
 *    PostgreSQL server of --database-url / BENCH_DATABASE_URL, created and
 *    dropped as the test database layer does.
 * 2. Serves the real HTTP stack in-process (the contract tests' server: every
 *    route and middleware, CoreLive, DatabaseHealth, NodeHttpServer on a free
 *    loopback port) and, as an organization admin of the imported
 *    organization, times a few first pages right after the import (no planner
 *    statistics yet), runs ANALYZE, then walks listings page by page over real
 *    HTTP (fetch, keep-alive) following nextCursor, timing each request up to
 *    its full body.
 * 3. EXPLAIN (ANALYZE)s the SQL the server ran for page 100 of the members
 *    walk and checks the page query reads users through a name index.
 */
import { readFileSync } from "node:fs"
import os from "node:os"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { ConfigProvider, Context, Effect, type Layer, Tracer } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { baseUrl, TestServerLive } from "../../apps/server/test/support/server.js"
import { largeFixture } from "./import-fixture.js"
import { checkPagePlan, type PlanNode } from "./plan.js"
import { median, ms, PAGE_SIZE, type Page, type Row, summarize, table, walk } from "./walk.js"

const { values: flags } = parseArgs({
  // `pnpm bench -- --flag` passes the `--` along.
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--")),
  options: {
    "database-url": { type: "string" },
    walks: { type: "string", default: "3" },
    "no-analyze": { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
    people: { type: "string", default: "20000" },
    roles: { type: "string", default: "500" }
  }
})

const databaseUrl = (flags["database-url"] ?? process.env["BENCH_DATABASE_URL"] ?? "").trim()
/** Walks of the members listing; the first is a warm-up. */
const walks = Math.max(2, Number(flags.walks) || 3)
const analyze = !flags["no-analyze"]
const peopleCount = Number(flags.people)
const roleCount = Number(flags.roles)
const MEMBER_PAGES = 100

const benchStart = performance.now()
/** Progress on stderr, with the time since the start. */
const progress = (message: string) =>
  process.stderr.write(`[${((performance.now() - benchStart) / 1000).toFixed(1)} s] ${message}\n`)

// ---------------------------------------------------------------------------
// The SQL the server runs, read from its `sql.execute` spans.

/** While set, the text of every SQL statement the server executes is appended here. */
let statementSink: Array<string> | null = null

const capturingTracer = (base: Tracer.Tracer) =>
  Tracer.make({
    span(name, parent, context, links, startTime, kind, options) {
      const span = base.span(name, parent, context, links, startTime, kind, options)
      if (name !== "sql.execute") return span
      const attribute = span.attribute.bind(span)
      span.attribute = (key, value) => {
        if (key === "db.query.text" && statementSink !== null && typeof value === "string") statementSink.push(value)
        attribute(key, value)
      }
      return span
    },
    context: (f, fiber) => base.context(f, fiber)
  })

// The server's SqlClient. scripts/ does not depend on @effect/sql, so its
// tag is made again from its key, typed as the service the server layer
// provides (the one with `unsafe`, leaving out PgClient's `listen`).
type SqlClient = Exclude<Extract<Layer.Layer.Success<typeof TestServerLive>, { readonly unsafe: unknown }>, { readonly listen: unknown }>
const Sql = Context.GenericTag<SqlClient>("@effect/sql/SqlClient")

const pgliteVersion = () => {
  const manifest = JSON.parse(readFileSync(new URL("../../packages/db/package.json", import.meta.url), "utf8"))
  return String(manifest.dependencies?.["@electric-sql/pglite"] ?? "?")
}

type ExplainJson = ReadonlyArray<{ readonly Plan: PlanNode; readonly "Execution Time": number }>

/**
 * EXPLAIN (ANALYZE) of the statements the server ran for members page 100,
 * with the parameters it bound: the org id, the keyset after page 99
 * (sort_name, id) and limit + 1 for the page; the org id for the total.
 */
const explainPageHundred = (sql: SqlClient, organizationId: string, statements: ReadonlyArray<string>, afterId: string | undefined) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    // Later pages carry the walk's total in their cursor: the count runs on page 1 only.
    lines.push(`\nmembers page ${MEMBER_PAGES}: ${statements.length} SQL statements (${statements.length > 2 ? "token check, total, page" : "token check, page"})`)
    const pageQuery = statements.find((text) => /FROM users u/.test(text) && /ORDER BY u\.sort_name, u\.id/.test(text))
    const countQuery = statements.find((text) => /count\(\*\)/.test(text) && /FROM users u/.test(text))
    if (pageQuery === undefined || afterId === undefined) {
      lines.push("WARNING: the members page query was not captured; no plan checked")
      return lines
    }
    // Its parameters in order: org id, the keyset after page 99 (sort_name, id), limit + 1.
    if (new Set(pageQuery.match(/\$\d+/g)).size !== 4 || !/\(u\.sort_name, u\.id\) > \(\$2, \$3\)/.test(pageQuery)) {
      lines.push(`WARNING: the members page query changed shape; no plan checked:\n${pageQuery}`)
      return lines
    }
    const after = (yield* sql.unsafe<{ sort_name: string }>("SELECT sort_name FROM users WHERE org_id = $1 AND id = $2", [organizationId, afterId]))[0]
    const params = [organizationId, after?.sort_name, afterId, PAGE_SIZE + 1]
    const explained = (yield* sql.unsafe<{ "QUERY PLAN": ExplainJson }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${pageQuery}`, params))[0]!["QUERY PLAN"]
    const check = checkPagePlan(explained[0]!.Plan)
    lines.push(
      `  page query: users u read by ${check.usersAccess.join(", ") || "?"} (${check.usersRowsRead} rows), ` +
        `${check.outerSorts === 0 ? "no Sort" : `${check.outerSorts} Sort node(s)`} outside the per-row subplans, ` +
        `${explained[0]!["Execution Time"].toFixed(2)} ms in the database`
    )
    if (check.ok) lines.push("  plan check: ok (keyset range scan of a name index; no Seq Scan of users; no Sort)")
    else lines.push(`WARNING: members page query plan: ${check.problems.join("; ")}`)
    if (countQuery !== undefined) {
      const counted = (yield* sql.unsafe<{ "QUERY PLAN": ExplainJson }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${countQuery}`, [organizationId]))[0]!["QUERY PLAN"]
      const access = checkPagePlan(counted[0]!.Plan)
      lines.push(
        `  total (page 1 only): users u read by ${access.usersAccess.join(", ") || "?"} (${access.usersRowsRead} rows), ` +
          `${counted[0]!["Execution Time"].toFixed(2)} ms in the database`
      )
    }
    if (flags.explain) {
      const text = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${pageQuery}`, params)
      lines.push(`\n-- members page ${MEMBER_PAGES}; parameters ${JSON.stringify(params)}\n${pageQuery.trim()}\n`)
      lines.push(text.map((row) => row["QUERY PLAN"]).join("\n"))
      if (countQuery !== undefined) {
        const counted = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${countQuery}`, [organizationId])
        lines.push(`\n-- members total; parameters ${JSON.stringify([organizationId])}\n${countQuery.trim()}\n`)
        lines.push(counted.map((row) => row["QUERY PLAN"]).join("\n"))
      }
    }
    return lines
  })

// ---------------------------------------------------------------------------

const program = Effect.gen(function*() {
  const sql = yield* Sql
  const serverVersion = String((yield* sql.unsafe<{ server_version: string }>("SHOW server_version"))[0]?.server_version ?? "?")
  const autovacuum = String((yield* sql.unsafe<{ autovacuum: string }>("SHOW autovacuum"))[0]?.autovacuum ?? "?")
  const database = databaseUrl === ""
    ? `embedded PGlite ${pgliteVersion()} in memory (PostgreSQL ${serverVersion}, single-user: no autovacuum)`
    : `PostgreSQL ${serverVersion} on ${new URL(databaseUrl).host}, fresh database (autovacuum ${autovacuum})`
  const cpus = os.cpus()
  console.log(`machine:  node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM`)
  console.log(`database: ${database}`)

  // 1. Import
  const fixture = largeFixture(peopleCount, roleCount)
  const input: unknown = JSON.parse(JSON.stringify(fixture)) // as `pnpm cli org import` receives it
  const importer = yield* FixtureImporter
  const importStart = performance.now()
  const result = yield* importer.importOrganization(input)
  const importMs = performance.now() - importStart
  const counts = Object.entries(result.ids)
    .filter(([, ids]) => Object.keys(ids).length > 0)
    .map(([kind, ids]) => `${Object.keys(ids).length} ${kind}`)
    .join(", ")
  console.log(`\nimport:   ${(importMs / 1000).toFixed(2)} s through FixtureImporter (${counts})`)
  progress("imported")

  const token = result.tokens["p1"] // p1 is an admin of the organization
  if (token === undefined) return yield* Effect.die("the fixture issued no token for p1")
  const teamId = result.ids["teams"]?.["team150"]
  const roleId = result.ids["companyRoles"]?.["r7"]
  const base = yield* baseUrl

  // 2a. First pages right after the import, before any ANALYZE.
  if (analyze) {
    const probes: ReadonlyArray<readonly [string, string]> = [
      ["members", "/v1/members"],
      ["company-roles", "/v1/company-roles"],
      ["teams", "/v1/teams"]
    ]
    const fresh: Array<readonly [string, number]> = []
    for (const [label, path] of probes) {
      const [page] = yield* Effect.promise(() => walk(base, path, token, 1))
      fresh.push([label, page!.ms])
      progress(`fresh ${label} page 1: ${ms(page!.ms)} ms`)
    }
    const analyzeStart = performance.now()
    yield* sql.unsafe("ANALYZE")
    const analyzeMs = performance.now() - analyzeStart
    console.log(`\nright after the import (the importer analyzes the tables it wrote), page 1, one cold request each:`)
    console.log(fresh.map(([label, value]) => `  ${label.padEnd(14)} ${ms(value).padStart(9)} ms`).join("\n"))
    console.log(`ANALYZE:  ${ms(analyzeMs)} ms; every number below is after it (--no-analyze to skip it)`)
  } else {
    console.log(`\n--no-analyze: no extra ANALYZE; the statistics are those the importer gathered`)
  }

  // 2b. Walks
  const rows: Array<Row> = []
  const pageHundredStatements: Array<string> = []
  const memberRuns = yield* Effect.promise(async () => {
    const runs: Array<Array<Page>> = []
    for (let i = 0; i < walks; i++) {
      const last = i === walks - 1
      const run = await walk(base, "/v1/members", token, MEMBER_PAGES, (n) => {
        // The last walk records the SQL of its page 100.
        if (last && n === MEMBER_PAGES) statementSink = pageHundredStatements
        else statementSink = null
      })
      statementSink = null
      if (i > 0) runs.push(run)
      progress(`members walk ${i + 1}/${walks}${i === 0 ? " (warm-up)" : ""}: median ${ms(median(run.map((p) => p.ms)))} ms per page`)
    }
    return runs
  })
  const members = summarize("members", memberRuns)
  rows.push(members)
  // 3. The plan of page 100's SQL, now, before other listings could fail.
  const planReport = yield* explainPageHundred(
    sql,
    result.organizationId,
    pageHundredStatements,
    memberRuns.at(-1)![MEMBER_PAGES - 2]?.ids.at(-1)
  )

  const others: ReadonlyArray<readonly [string, string, number]> = [
    ["members status=all", "/v1/members?status=all", MEMBER_PAGES],
    ["members status=deactivated", "/v1/members?status=deactivated", MEMBER_PAGES],
    ["members query=\"person 1\"", `/v1/members?query=${encodeURIComponent("person 1")}`, MEMBER_PAGES],
    ["members query=\"person 1999\"", `/v1/members?query=${encodeURIComponent("person 1999")}`, 1],
    ...(teamId === undefined ? [] : [["members teamId=(team of 100)", `/v1/members?teamId=${teamId}`, 2] as const]),
    ["reporting-lines", "/v1/reporting-lines", 10],
    ["company-roles", "/v1/company-roles", 10],
    ["teams", "/v1/teams", 4],
    ...(roleId === undefined ? [] : [["company-roles/{id}/duties", `/v1/company-roles/${roleId}/duties`, 5] as const])
  ]
  const failures: Array<string> = []
  for (const [label, path, pages] of others) {
    const row = yield* Effect.tryPromise(async () => {
      await walk(base, path, token, pages) // warm-up
      return summarize(label, [await walk(base, path, token, pages)])
    }).pipe(Effect.either)
    if (row._tag === "Right") {
      rows.push(row.right)
      progress(`${label}: median ${ms(row.right.perPage)} ms per page`)
    } else {
      failures.push(`WARNING: ${label} failed: ${String(row.left.error instanceof Error ? row.left.error.message : row.left.error)}`)
      progress(failures.at(-1)!)
    }
  }

  console.log(`\nGET latency over HTTP in ms (request start to full body), limit=50, organization admin token.`)
  console.log(`members: ${walks} walks of pages 1-${MEMBER_PAGES}, the first a warm-up, medians over the other ${walks - 1};`)
  console.log(`other listings: a warm-up walk, then one timed walk; "last" is the last page walked.\n`)
  console.log(table(
    ["listing", "pages", "total", "page 1", "last page", "median/page"],
    rows.map((r) => [r.listing, String(r.pages), r.total === undefined ? "" : String(r.total), ms(r.first), ms(r.last), ms(r.perPage)])
  ))
  for (const failure of failures) console.log(failure)
  console.log(`\nmembers: page 1 ${ms(members.first)} ms, page ${members.pages} ${ms(members.last)} ms, median ${ms(members.perPage)} ms per page`)
  for (const row of rows.filter((r) => r.listing.startsWith("members") && r.pages === MEMBER_PAGES)) {
    if (row.last > 3 * row.first) {
      console.log(`WARNING: ${row.listing}: page ${row.pages} (${ms(row.last)} ms) is over 3x page 1 (${ms(row.first)} ms); keyset pages should cost the same`)
    }
  }

  for (const line of planReport) console.log(line)
})

// TestDatabaseLive reads TEST_DATABASE_URL: the bench's server, or none (the
// embedded database) whatever the environment says. The walks send thousands
// of requests a minute on one token: the per-token limit still counts them,
// but so high that it never refuses.
const config = ConfigProvider.fromMap(new Map([["TEST_DATABASE_URL", databaseUrl], ["RATE_LIMIT_PER_MINUTE", "1000000000"]])).pipe(
  ConfigProvider.orElse(() => ConfigProvider.fromEnv())
)

Effect.runPromise(
  Effect.tracerWith((tracer) =>
    program.pipe(
      Effect.provide(TestServerLive),
      Effect.withTracer(capturingTracer(tracer)),
      Effect.withConfigProvider(config)
    )
  )
).then(
  () => console.log(`\nbench done in ${((performance.now() - benchStart) / 1000).toFixed(0)} s${databaseUrl === "" ? "" : "; its database was dropped"}`),
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  }
)
