import pg from "pg"
import type { Running } from "./compare-processes.js"
import type { HotEndpoint } from "./hot-endpoints.js"

const call = (server: Running, endpoint: HotEndpoint, token = endpoint.token) =>
  fetch(`${server.url}${endpoint.path}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } })
    .then(async (response) => ({ status: response.status, text: await response.text() }))

/**
 * One request of `endpoint` to each server before it is loaded: both must
 * answer 200 with the same bytes at this size too (the body-diff test holds
 * them together on a small organization). A difference is reported, not fatal.
 */
export const sameAnswer = async (ours: Running, reference: Running, endpoint: HotEndpoint): Promise<ReadonlyArray<string>> => {
  const token = endpoint.tokens?.[0] ?? endpoint.token
  const a = await call(ours, endpoint, token)
  const b = await call(reference, endpoint, token)
  if (a.status !== 200 || b.status !== 200) return [`WARNING: ${endpoint.label}: our server answered ${a.status}, the reference ${b.status}: ${(a.status !== 200 ? a.text : b.text).slice(0, 200)}`]
  if (a.text === b.text) return []
  let i = 0
  while (a.text[i] === b.text[i]) i++
  // Our server asked again: an answer that changes from call to call is ours, not the reference drifting.
  const again = await call(ours, endpoint, token)
  const cause = again.text === a.text ? "" : " (our server's own answer changed between two calls: not deterministic)"
  return [`WARNING: ${endpoint.label}: the bodies differ from character ${i}${cause}: ours …${a.text.slice(Math.max(0, i - 40), i + 40)}… reference …${b.text.slice(Math.max(0, i - 40), i + 40)}…`]
}

export const fetchVersion = async (databaseUrl: string) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return `PostgreSQL ${(await client.query<{ server_version: string }>("SHOW server_version")).rows[0]?.server_version ?? "?"}`
  } finally {
    await client.end()
  }
}

/**
 * Whether the hot statements are prepared on our server: pg_stat_statements
 * (when the server preloads it, with track_planning on) counts plans and
 * calls per statement; a statement planned fewer times than it ran is
 * prepared. The counts are reset, then each hot endpoint is called 20 times
 * on our server alone. Without it, only the reference's side is known.
 */
export const preparedReport = async (databaseUrl: string, oursUrl: string, endpoints: ReadonlyArray<HotEndpoint>, referenceLine: string): Promise<ReadonlyArray<string>> => {
  const named = /named=true/.test(referenceLine)
  const lines = [`\nprepared statements: the reference sends ${named ? "named prepared statements (parsed and planned once per connection)" : "unnamed statements"} (${referenceLine.trim()})`]
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const settings = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('shared_preload_libraries', 'pg_stat_statements.track_planning')"
    )
    const setting = (name: string) => settings.rows.find((row) => row.name === name)?.setting ?? ""
    if (!setting("shared_preload_libraries").includes("pg_stat_statements") || setting("pg_stat_statements.track_planning") !== "on") {
      lines.push("our server: not measured (pg_stat_statements needs shared_preload_libraries = 'pg_stat_statements' and pg_stat_statements.track_planning = on on this server)")
      return lines
    }
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    await client.query("SELECT pg_stat_statements_reset()")
    for (const endpoint of endpoints) {
      const token = endpoint.tokens?.[1] ?? endpoint.token
      for (let i = 0; i < 20; i++) await fetch(`${oursUrl}${endpoint.path}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer())
    }
    const rows = await client.query<{ calls: string; plans: string; query: string }>(
      `SELECT calls::text, plans::text, query FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND calls >= 20 ORDER BY calls DESC`
    )
    const prepared = rows.rows.filter((row) => Number(row.plans) < Number(row.calls))
    lines.push(`our server: ${prepared.length} of ${rows.rows.length} statements run 20 times or more were planned fewer times than they ran (prepared)`)
    for (const row of rows.rows) lines.push(`  ${row.calls.padStart(6)} calls ${row.plans.padStart(6)} plans  ${row.query.replace(/\s+/g, " ").slice(0, 90)}`)
  } catch (error) {
    lines.push(`our server: not measured (${error instanceof Error ? error.message : String(error)})`)
  } finally {
    await client.end()
  }
  return lines
}
