/**
 * `pnpm bench [--database-url URL] [--walks N] [--no-analyze] [--explain] [--people N] [--roles N]
 *   [--topics N] [--content N] [--samples N] [--only narration|assigning|learning-queue|tools|search]`
 *
 * 1. Generates a 20,000-person / 500-role organization with a knowledge graph
 *    of 5,000 topics and a library of 20,000 content records with chapters
 *    (import-fixture.ts, library-fixture.ts) and imports it through
 *    FixtureImporter into a fresh database: in-memory embedded PGlite by
 *    default, or a new `tks_test_*` database on the PostgreSQL server of
 *    --database-url / BENCH_DATABASE_URL, created and dropped as the test
 *    database layer does.
 * 2. Serves the real HTTP stack in-process (the contract tests' server: every
 *    route and middleware, CoreLive, DatabaseHealth, NodeHttpServer on a free
 *    loopback port) and, as an organization admin of the imported
 *    organization, times a few first pages right after the import (no planner
 *    statistics yet), runs ANALYZE, then walks listings page by page over real
 *    HTTP (fetch, keep-alive) following nextCursor, timing each request up to
 *    its full body.
 * 3. EXPLAIN (ANALYZE)s the SQL the server ran for page 100 of the members
 *    walk and checks the page query reads users through a name index.
 * 4. The library and knowledge reads (reads.ts): content list walks and a
 *    title filter, search samples (a selective word, a common word, a typo;
 *    as an admin and as a viewer) with the database time of the SQL the
 *    server ran for them against the 50 ms budget, and topic detail over
 *    random topics. An endpoint this build does not serve is "not available".
 * 5. Narration (narration.ts): 1000-character narrations on the local speech
 *    engine, p50/p99, and GET /v1/me p99 while 4 narrations run at once.
 * 6. Assigning (assigning.ts): a lesson assigned to everyone in the
 *    organization (budget 10 s at 20,000 people), what it wrote (enrollments,
 *    obligations, quizzes, outbox rows) and that it was one transaction; then
 *    the same assignment again.
 *
 * 7. The learning queue (learning-queue.ts): a second organization built
 *    around a person with 1,000 duties (learning-queue-fixture.ts); the queue
 *    read by them, their managers and an admin, and the database time of its
 *    statement under EXPLAIN (ANALYZE) against the 20 ms budget. Run before
 *    step 6, which leaves the workers busy.
 *
 * 8. The tools (tools.ts): `tools/call` of search_service and list_role_duties
 *    over /mcp next to their HTTP twins, alternating, against the 1.3x budget.
 *
 * `--compare` runs the side-by-side bench against the reference server instead (compare.ts).
 *
 * `--only tools` imports the same organization and runs step 8 alone;
 * `--only search` imports the same organization and runs the search samples
 * of step 4 alone (with their plans; --explain prints them whole);
 * `--only narration` imports a 200-person organization and runs step 5 alone;
 * `--only assigning` imports the 20,000 people (--people N) with a small
 * graph and library and runs step 6 alone; `--only learning-queue` imports
 * only the learning-queue organization and runs step 7 alone.
 */
import os from "node:os"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { ConfigProvider, Effect } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { baseUrl, TestServerLive } from "../../apps/server/test/support/server.js"
import { captureInto, capturingTracer, type Statement, withParameterCapture } from "./capture.js"
import { pgliteVersion, Sql } from "./database.js"
import { largeFixture, VIEWER_KEY } from "./import-fixture.js"
import { learningQueueStep } from "./learning-queue.js"
import { explainPageHundred, MEMBER_PAGES } from "./members-plan.js"
import { assigningBench } from "./assigning.js"
import { webhookBench } from "./webhooks.js"
import { narrationBench } from "./narration.js"
import { toolsBench } from "./tools.js"
import { libraryReads, type ReadsResult, searchReads } from "./reads.js"
import { sampledCells, sampledHeader, WARM_UP } from "./samples.js"
import { median, ms, type Page, type Row, summarize, table, walk } from "./walk.js"

if (process.argv.includes("--compare")) {
  await (await import("./compare.js")).compare(process.argv.slice(2))
  process.exit()
}

const { values: flags } = parseArgs({
  // `pnpm bench -- --flag` passes the `--` along.
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--")),
  options: {
    "database-url": { type: "string" },
    walks: { type: "string", default: "3" },
    "no-analyze": { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
    people: { type: "string", default: "20000" },
    roles: { type: "string", default: "500" },
    topics: { type: "string", default: "5000" },
    content: { type: "string", default: "20000" },
    samples: { type: "string", default: "50" },
    only: { type: "string" }
  }
})

const narrationOnly = flags.only === "narration"
const assigningOnly = flags.only === "assigning"
const queueOnly = flags.only === "learning-queue"
const toolsOnly = flags.only === "tools"
const searchOnly = flags.only === "search"
if (flags.only !== undefined && !narrationOnly && !assigningOnly && !queueOnly && !toolsOnly && !searchOnly) {
  throw new Error(`--only takes "narration", "assigning", "learning-queue", "tools" or "search", not ${JSON.stringify(flags.only)}`)
}
/** Only a people-sized organization matters to step 6: a small graph and library keep its import short. */
const small = narrationOnly || assigningOnly

const databaseUrl = (flags["database-url"] ?? process.env["BENCH_DATABASE_URL"] ?? "").trim()
/** Walks of the members listing; the first is a warm-up. */
const walks = Math.max(2, Number(flags.walks) || 3)
const analyze = !flags["no-analyze"]
const peopleCount = narrationOnly ? 200 : Number(flags.people)
const roleCount = small ? 10 : Number(flags.roles)
const topicCount = small ? 20 : Number(flags.topics)
const contentCount = small ? 20 : Number(flags.content)
/** Timed requests per sampled row (search, topic detail, title filter). */
const samples = Math.max(1, Number(flags.samples) || 50)

/** The lesson of step 6 (fixture key). */
const ASSIGNED_LESSON = "bench-lesson"
/** The lesson step 6 assigns to everyone again with a webhook endpoint subscribed (fixture key). */
const WEBHOOK_LESSON = "bench-lesson-webhooks"

const benchStart = performance.now()
/** Progress on stderr, with the time since the start. */
const progress = (message: string) =>
  process.stderr.write(`[${((performance.now() - benchStart) / 1000).toFixed(1)} s] ${message}\n`)

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
  if (queueOnly) return yield* learningQueue()

  // 1. Import
  const fixture = {
    ...largeFixture({ people: peopleCount, roles: roleCount, topics: topicCount, content: contentCount }),
    // The lesson step 6 assigns to everyone, built on one piece of content (its quizzes are prepared from it).
    lessons: [
      { key: ASSIGNED_LESSON, title: "Warehouse safety refresher", content: contentCount > 0 ? ["c0"] : [] },
      { key: WEBHOOK_LESSON, title: "Loading dock refresher", content: contentCount > 0 ? ["c0"] : [] }
    ]
  }
  const input: unknown = JSON.parse(JSON.stringify(fixture)) // as `pnpm cli org import` receives it
  const importer = yield* FixtureImporter
  const importStatements: Array<Statement> = []
  captureInto(importStatements, { params: false })
  const importStart = performance.now()
  const result = yield* importer.importOrganization(input).pipe(Effect.ensuring(Effect.sync(() => captureInto(null))))
  const importMs = performance.now() - importStart
  const counts = Object.entries(result.ids)
    .filter(([, ids]) => Object.keys(ids).length > 0)
    .map(([kind, ids]) => `${Object.keys(ids).length} ${kind}`)
    .join(", ")
  const chapters = (fixture.content ?? []).reduce((sum, record) => sum + (record.chapters?.length ?? 0), 0)
  const evidence = (fixture.spaces ?? []).flatMap((space) => space.topics ?? []).flatMap((topic) => topic.items ?? [])
    .reduce((sum, item) => sum + (item.evidence?.length ?? 0), 0)
  console.log(`\nimport:   ${(importMs / 1000).toFixed(2)} s through FixtureImporter (${counts}, ${chapters} chapters, ${evidence} evidence)`)
  // One statement past the statement timeout (15 s) fails the whole import: show how close the longest came.
  const longest = [...importStatements].sort((a, b) => b.ms - a.ms).slice(0, 3)
  console.log(`longest import statements: ${longest.map((s) => `${(s.ms / 1000).toFixed(2)} s ${s.text.trim().replace(/\s+/g, " ").slice(0, 40)}…`).join("; ")}`)
  if ((longest[0]?.ms ?? 0) > 10_000) console.log("WARNING: an import statement took over 10 s; the statement timeout is 15 s")
  progress("imported")

  const token = result.tokens["p1"] // p1 is an admin of the organization
  if (token === undefined) return yield* Effect.die("the fixture issued no token for p1")
  const base = yield* baseUrl
  // Admins p1..p19 carry narration:synthesize.
  const narrators = Array.from({ length: 19 }, (_, i) => result.tokens[`p${i + 1}`]).filter((t): t is string => t !== undefined)
  const narration = () =>
    Effect.promise(() => narrationBench({ base, tokens: narrators, samples, progress })).pipe(
      Effect.flatMap((lines) => Effect.sync(() => lines.forEach((line) => console.log(line))))
    )
  if (narrationOnly) return yield* narration()
  const assigning = () =>
    assigningBench({
      base,
      sql,
      token,
      orgId: result.organizationId,
      lessonId: result.ids.lessons[ASSIGNED_LESSON] ?? "",
      people: peopleCount,
      progress
    }).pipe(
      Effect.tap(({ lines }) => Effect.sync(() => lines.forEach((line) => console.log(line)))),
      Effect.flatMap(({ firstMs }) =>
        Effect.promise(() =>
          webhookBench({ base, token, lessonId: result.ids.lessons[WEBHOOK_LESSON] ?? "", baselineMs: firstMs, progress })
        )
      ),
      Effect.flatMap((lines) => Effect.sync(() => lines.forEach((line) => console.log(line))))
    )
  if (assigningOnly) return yield* assigning()

  const teamId = result.ids["teams"]?.["team150"]
  const roleId = result.ids["companyRoles"]?.["r7"]
  const tools = () =>
    Effect.promise(() => toolsBench({ base, token, roleId, samples, progress })).pipe(
      Effect.flatMap((lines) => Effect.sync(() => lines.forEach((line) => console.log(line))))
    )
  if (toolsOnly) {
    yield* sql.unsafe("ANALYZE")
    return yield* tools()
  }
  const readsContext = {
    base,
    sql,
    admin: token,
    viewer: result.tokens[VIEWER_KEY],
    topicIds: Object.values(result.ids["topics"] ?? {}),
    samples,
    explainText: flags.explain,
    progress
  }
  if (searchOnly) {
    yield* sql.unsafe("ANALYZE")
    return yield* printReads(yield* searchReads(readsContext))
  }

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
  const pageHundredStatements: Array<Statement> = []
  const memberRuns = yield* Effect.promise(async () => {
    const runs: Array<Array<Page>> = []
    for (let i = 0; i < walks; i++) {
      const last = i === walks - 1
      const run = await walk(base, "/v1/members", token, MEMBER_PAGES, (n) => {
        // The last walk records the SQL of its page 100.
        captureInto(last && n === MEMBER_PAGES ? pageHundredStatements : null)
      })
      captureInto(null)
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
    pageHundredStatements.map((statement) => statement.text),
    memberRuns.at(-1)![MEMBER_PAGES - 2]?.ids.at(-1),
    flags.explain
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

  // 4. Library and knowledge reads.
  yield* printReads(yield* libraryReads(readsContext))

  // 8. The tools next to their HTTP twins, on the same organization.
  yield* tools()

  // 5. Narration.
  yield* narration()

  // 7. The learning queue, before assigning leaves the workers busy.
  yield* learningQueue()

  // 6. Assigning: last, since it leaves the workers busy preparing quizzes and delivering messages.
  yield* assigning()
})

/** Step 4's tables and search plans. */
const printReads = (reads: ReadsResult) =>
  Effect.sync(() => {
    console.log(`\nlibrary and knowledge reads over HTTP in ms, as an organization admin and as a viewer (${VIEWER_KEY}, team-only content of one team):`)
    if (reads.walks.length > 0) {
      console.log(`content walks: a warm-up walk, then one timed walk of up to ${reads.walks[0]!.pages} pages (limit=50)\n`)
      console.log(table(
        ["listing", "pages", "page 1", "last page", "median/page"],
        reads.walks.map((r) => [r.listing, String(r.pages), ms(r.first), ms(r.last), ms(r.perPage)])
      ))
    }
    if (reads.sampled.length > 0) {
      console.log(
        `\nsampled requests: ${WARM_UP} warm-up requests, then ${samples} timed (fewer when a row passes 30 s);` +
          ` "rows" is the median answer size; "SQL" is the time a request spent in sql.execute spans (token check included)\n`
      )
      console.log(table(sampledHeader, reads.sampled.map(sampledCells)))
    }
    for (const missing of reads.unmeasured) console.log(`${missing.label}: ${missing.reason}`)
    if (reads.report.length > 0) console.log(`\nsearch: the SQL the server ran for the last sample of each search, run again under EXPLAIN (ANALYZE):`)
    for (const line of reads.report) console.log(line)
  })

/** Step 7 (learning-queue.ts). */
const learningQueue = () => learningQueueStep({ explainText: flags.explain, progress })

// TestDatabaseLive reads TEST_DATABASE_URL: the bench's server, or none (the
// embedded database) whatever the environment says. The walks send thousands
// of requests a minute on one token: the per-token limit still counts them,
// but so high that it never refuses.
// The webhook step delivers to a receiver on loopback.
const config = ConfigProvider.fromMap(
  new Map([["TEST_DATABASE_URL", databaseUrl], ["RATE_LIMIT_PER_MINUTE", "1000000000"], ["WEBHOOK_ALLOW_PRIVATE_TARGETS", "true"]])
).pipe(
  ConfigProvider.orElse(() => ConfigProvider.fromEnv())
)

Effect.runPromise(
  Effect.tracerWith((tracer) =>
    program.pipe(
      Effect.provide(TestServerLive),
      Effect.withTracer(capturingTracer(tracer)),
      withParameterCapture,
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
