import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What changes on requests that are refused, by design: the rate-limit
 * counters count refused requests too, and authenticating a token notes
 * when it was last used (to the minute) before the request is judged.
 */
const countersOnly = new Set(["rate_limit_counters"])
const bookkeeping: Record<string, ReadonlyArray<string>> = { access_tokens: ["last_used_at"] }

/**
 * A digest of every table of the public schema, by table: two equal
 * fingerprints mean no row was added, changed or removed in between.
 */
export const fingerprint = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{ readonly name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`
  const names = tables.map((table) => table.name).filter((name) => !countersOnly.has(name))
  const query = names
    .map((name) => {
      const row = `(to_jsonb(t) - ARRAY[${(bookkeeping[name] ?? []).map((column) => `'${column}'`).join(",")}]::text[])::text`
      return `SELECT '${name}' AS name, md5(coalesce(string_agg(${row}, '|' ORDER BY ${row}), '')) AS digest FROM "${name}" t`
    })
    .join(" UNION ALL ")
  const rows = yield* sql.unsafe<{ readonly name: string; readonly digest: string }>(query)
  return new Map(rows.map((row) => [row.name, row.digest]))
})

/** The tables whose digest differs. */
export const changedTables = (before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name))
