/**
 * `pnpm bench -- --compare [--database-url URL] [--rounds 3] [--seconds 4] [--warm-up 1]
 *   [--connections 16] [--only TEXT] [--people N] [--roles N] [--topics N] [--content N] [--server FILE]`
 *
 * Our production build side by side with the reference server
 * (scripts/bench/reference: fastify and pg sending the same statements and
 * answering the same bodies), on PostgreSQL:
 *
 * 1. Imports the bench's organizations (import-fixture.ts, 20,000 people by
 *    default, and the learning-queue one) into a fresh database on the
 *    server of --database-url, BENCH_DATABASE_URL or, when it answers,
 *    postgres://postgres@127.0.0.1:5432/postgres; ANALYZE.
 * 2. Builds dist/server.mjs when a source is newer (or reuses it; --server
 *    runs another build instead, e.g. an earlier commit's, for a before and
 *    after) and starts
 *    it as production runs (NODE_ENV=production: JSON access log on stdout,
 *    into a file), and the reference, each its own process on the database.
 * 3. For each hot endpoint (hot-endpoints.ts): a warm-up on each, then
 *    rounds alternating the two (the first server of a round alternates
 *    too), each a bounded load of --seconds with --connections keep-alive
 *    connections (autocannon; the counterpart of `wrk -t2 -c16`). Per server
 *    and round: the server process's CPU (utime + stime from /proc/PID/stat)
 *    per request, requests/s, p50 and p99; the medians over rounds and the
 *    ratios ours/reference against the issue's targets. A missed target is
 *    marked, never a failure: this is a bench.
 * 4. One MCP tools/call (list_role_duties, 2026-07-28) against its HTTP twin
 *    on our server, the same way: with an access token on /mcp, and with a
 *    JWT of the organization's identity provider on /mcp/{organizationId}
 *    (compare-mcp.ts).
 * 5. Whether the hot statements are prepared (pg_stat_statements when the
 *    server loads it), the load average at start and end, and every number
 *    as JSON in bench-results/compare-<time>.json.
 *
 * Our server runs with WORKERS=false (no job worker polling or preparing
 * quizzes inside the measured process), RATE_LIMIT_PER_MINUTE=1000000000
 * (the load never meets the per-token limit), SEED_DEMO=false, and the same
 * PUBLIC_URL and CURSOR_SECRET as the reference (the same links and cursors).
 * With BENCH_PROFILE_DIR set, our server runs with `--cpu-prof` and writes
 * its CPU profile there when it stops (for finding where a request's time
 * goes; the numbers of such a run are not comparable).
 */
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { ConfigProvider, Effect } from "effect"
import { TestServerOnSharedDatabaseWithoutWorkersLive } from "../../apps/server/test/support/server.js"
import { SharedDatabaseUrl } from "../../apps/server/test/support/shared-database.js"
import { type LoadSpec, load, type Measured, type Settings } from "./compare-load.js"
import { freePort, freshBuild, repositoryRoot, type Running, serverBundle, startProcess } from "./compare-processes.js"
import { endpointTable, type EndpointRounds, mcpLine, ratiosOf, summarize } from "./compare-report.js"
import { importForCompare, type Imported, postgresUrl } from "./compare-setup.js"
import { fetchVersion, preparedReport, sameAnswer } from "./compare-checks.js"
import { mcpAgainstTwin } from "./compare-mcp.js"
import { cursorAfterPage, type HotEndpoint, hotEndpoints } from "./hot-endpoints.js"

export const compare = async (argv: ReadonlyArray<string>) => {
  const { values: flags } = parseArgs({
    args: argv.filter((arg) => arg !== "--" && arg !== "--compare"),
    options: {
      "database-url": { type: "string" },
      rounds: { type: "string", default: "3" },
      seconds: { type: "string", default: "4" },
      "warm-up": { type: "string", default: "5" },
      connections: { type: "string", default: "16" },
      only: { type: "string" },
      people: { type: "string", default: "20000" },
      roles: { type: "string", default: "500" },
      topics: { type: "string", default: "5000" },
      content: { type: "string", default: "20000" },
      server: { type: "string" }
    }
  })
  const started = performance.now()
  const startedAt = new Date().toISOString()
  const progress = (message: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${message}\n`)
  const settings = {
    rounds: Math.max(1, Number(flags.rounds) || 3),
    seconds: Math.max(1, Number(flags.seconds) || 4),
    warmUp: Math.max(0, Number(flags["warm-up"])),
    connections: Math.max(1, Number(flags.connections) || 16)
  }
  const url = await postgresUrl(flags["database-url"])
  if (url === undefined) {
    console.error("--compare needs PostgreSQL: pass --database-url or set BENCH_DATABASE_URL (nothing answered on postgres://postgres@127.0.0.1:5432/postgres)")
    process.exitCode = 2
    return
  }
  const loadAtStart = os.loadavg()
  const bundle = flags.server ?? serverBundle
  const build = flags.server === undefined ? freshBuild(progress) : `given: ${flags.server}`
  progress(`${bundle} ${build}`)
  const size = { people: Number(flags.people), roles: Number(flags.roles), topics: Number(flags.topics), content: Number(flags.content) }
  const program = Effect.gen(function*() {
    const imported = yield* importForCompare(size, progress)
    const databaseUrl = yield* SharedDatabaseUrl
    return yield* Effect.promise(() => sideBySide(bundle, databaseUrl, imported, settings, flags.only, progress))
  })
  const config = ConfigProvider.fromMap(new Map([["TEST_DATABASE_URL", url]])).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
  const result = await Effect.runPromise(program.pipe(Effect.provide(TestServerOnSharedDatabaseWithoutWorkersLive), Effect.withConfigProvider(config)))
  const loadAtEnd = os.loadavg()

  const rows = result.endpoints.map(({ endpoint, ours, reference }) => {
    const o = summarize(ours)
    const r = summarize(reference)
    return { label: endpoint.label, path: endpoint.path.replace(/cursor=[^&]+/, "cursor=…"), kind: endpoint.kind, ours: o, reference: r, ratios: ratiosOf(endpoint.kind, o, r), rounds: { ours, reference } }
  })
  const load = (avg: ReadonlyArray<number>) => avg.map((n) => n.toFixed(2)).join(" ")
  const cpus = os.cpus()
  console.log(`\nmachine: node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? "?"}); load average ${load(loadAtStart)} at start, ${load(loadAtEnd)} at the end`)
  console.log(`database: ${result.serverVersion}, fresh database on ${new URL(url).host}; import ${result.importSeconds.toFixed(0)} s; dist/server.mjs ${build}`)
  console.log(`load: autocannon, ${settings.connections} connections, ${settings.rounds} alternating rounds of ${settings.seconds} s per server and endpoint after a ${settings.warmUp} s warm-up; medians over rounds`)
  console.log(`CPU: the server process's utime + stime per request; DB: every postgres process of the machine per request (indicative: the server is shared)\n`)
  console.log(endpointTable(rows))
  if (result.mcp !== null) {
    console.log(`\n${mcpLine(`${result.mcp.tool} (access token, /mcp)`, result.mcp.twin, summarize(result.mcp.mcp), summarize(result.mcp.http))}`)
    console.log(mcpLine(`${result.mcp.tool} (JWT of the organization's identity provider, /mcp/{organizationId})`, result.mcp.twin, summarize(result.mcp.jwt), summarize(result.mcp.http)))
  }
  for (const line of result.notes) console.log(line)
  const directory = join(repositoryRoot, "bench-results")
  mkdirSync(directory, { recursive: true })
  const file = join(directory, `compare-${new Date().toISOString().replace(/[:.]/g, "-")}.json`)
  writeFileSync(file, `${JSON.stringify({ startedAt, machine: { node: process.version, cpus: cpus.length, model: cpus[0]?.model.trim() }, loadAverage: { start: loadAtStart, end: loadAtEnd }, database: result.serverVersion, settings: { ...settings, size, build }, endpoints: rows, mcp: result.mcp === null ? null : { ...result.mcp, mcpSummary: summarize(result.mcp.mcp), jwtSummary: summarize(result.mcp.jwt), httpSummary: summarize(result.mcp.http) }, notes: result.notes }, null, 2)}\n`)
  console.log(`\nnumbers as JSON: ${file}\ncompare done in ${((performance.now() - started) / 1000).toFixed(0)} s; its database was dropped`)
}

const sideBySide = async (bundle: string, databaseUrl: string, imported: Imported, settings: Settings, only: string | undefined, progress: (message: string) => void) => {
  const env = {
    DATABASE_URL: databaseUrl,
    HOST: "127.0.0.1",
    PUBLIC_URL: "http://bench.example",
    CURSOR_SECRET: randomBytes(32).toString("base64url"),
    RATE_LIMIT_PER_MINUTE: "1000000000",
    NODE_ENV: "production"
  }
  const logs = join(os.tmpdir(), `tks-compare-${process.pid}`)
  mkdirSync(logs, { recursive: true })
  const ourPort = await freePort()
  const ours = await startProcess("our server", [...(process.env["BENCH_PROFILE_DIR"] ? ["--cpu-prof", `--cpu-prof-dir=${process.env["BENCH_PROFILE_DIR"]}`] : []), bundle], { ...env, PORT: String(ourPort), WORKERS: "false", SEED_DEMO: "false" }, ourPort, join(logs, "server-stdout.log"))
  const refPort = await freePort()
  let reference: Running | undefined
  try {
    reference = await startProcess("reference", ["--import", "tsx", "scripts/bench/reference/main.ts"], { ...env, PORT: String(refPort) }, refPort, join(logs, "reference-stdout.log"))
    progress(`our server (pid ${ours.pid}) and the reference (pid ${reference.pid}) are up`)
    // Page 100, or the last full one of a smaller organization (a 97th of the people have left).
    const laterPage = Math.max(2, Math.min(100, Math.floor(imported.people / 51)))
    const membersCursor = await cursorAfterPage(ours.url, "/v1/members", imported.admin, laterPage - 1)
    const endpoints = hotEndpoints({ ...imported, membersCursor, laterPage }).filter((e) => only === undefined || e.label.includes(only))
    const notes: Array<string> = []
    for (const endpoint of endpoints) notes.push(...await sameAnswer(ours, reference, endpoint))
    const results: Array<EndpointRounds> = []
    for (const endpoint of endpoints) {
      const spec = (server: Running): LoadSpec => ({
        url: `${server.url}${endpoint.path}`,
        headers: { "accept-encoding": "identity", ...(endpoint.token === null ? {} : { authorization: `Bearer ${endpoint.token}` }) },
        ...(endpoint.tokens === undefined ? {} : { rotate: endpoint.tokens.map((token) => `Bearer ${token}`) }),
        connections: settings.connections,
        seconds: settings.seconds
      })
      results.push(await alternate(ours, reference, endpoint, spec, settings, progress))
    }
    const mcp = only === undefined || only === "mcp" ? await mcpAgainstTwin(ours, imported, settings, databaseUrl, env.PUBLIC_URL, progress) : null
    const accessLog = readFileSync(join(logs, "server-stdout.log"), "utf8").split("\n").filter((line) => line.includes("http.status")).length
    notes.push(`our server's access log: ${accessLog.toLocaleString("en-US")} lines (JSON, stdout into a file)`)
    const referenceLine = readFileSync(join(logs, "reference-stdout.log"), "utf8").split("\n")[0] ?? ""
    notes.push(...await preparedReport(databaseUrl, ours.url, endpoints, referenceLine))
    const serverVersion = await fetchVersion(databaseUrl)
    return { endpoints: results, mcp, notes, serverVersion, importSeconds: imported.importSeconds }
  } finally {
    await reference?.stop()
    await ours.stop()
    rmSync(logs, { recursive: true, force: true })
  }
}

/** A warm-up on each, then `rounds` rounds, the first server of each round alternating. */
export const alternate = async (
  ours: Running,
  reference: Running,
  endpoint: HotEndpoint,
  spec: (server: Running) => LoadSpec,
  settings: Settings,
  progress: (message: string) => void
): Promise<EndpointRounds> => {
  if (settings.warmUp > 0) {
    await load(ours.pid, { ...spec(ours), seconds: settings.warmUp })
    await load(reference.pid, { ...spec(reference), seconds: settings.warmUp })
  }
  const measured = { ours: [] as Array<Measured>, reference: [] as Array<Measured> }
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? [["ours", ours], ["reference", reference]] as const : [["reference", reference], ["ours", ours]] as const
    for (const [side, server] of order) measured[side].push(await load(server.pid, spec(server)))
  }
  const o = summarize(measured.ours)
  const r = summarize(measured.reference)
  progress(`${endpoint.label}: CPU ${o.cpuUs.toFixed(0)} / ${r.cpuUs.toFixed(0)} µs, ${o.rps.toFixed(0)} / ${r.rps.toFixed(0)} req/s, p99 ${o.p99} / ${r.p99} ms`)
  return { endpoint, ...measured }
}
