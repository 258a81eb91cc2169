import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Row } from "./plan-types.js"

/**
 * Bulk inserts: one multi-row INSERT per chunk. Chunks are sized by bound
 * parameters (PostgreSQL allows 65,535 per statement) and capped in rows so a
 * single statement stays a reasonable size.
 */
const maxParameters = 30_000
const maxRows = 1_000

/** Any fixed number: it names the "importing into an empty database" lock among the server's replicas. */
const emptyDatabaseLock = 7_281_934_101

interface TableRows {
  readonly table: string
  readonly rows: ReadonlyArray<Row>
}

/** The SQL of the organization import and of the demo seed. */
export class OrgImportRepo extends Effect.Service<OrgImportRepo>()("@tks/core/OrgImportRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The database's clock: the defaults an import fills in agree with the now() its queries compare against. */
    const now = sql<{ now: Date }>`SELECT now() AS now`.pipe(Effect.map((rows) => rows[0]?.now ?? new Date()))

    /** `tables` in order: each row's foreign keys point at rows of earlier tables or earlier in its own. */
    const insert = (tables: ReadonlyArray<TableRows>) =>
      Effect.forEach(
        tables,
        ({ table, rows }) => {
          const first = rows[0]
          if (first === undefined) return Effect.void
          const size = Math.max(1, Math.min(maxRows, Math.floor(maxParameters / Object.keys(first).length)))
          const chunks: Array<ReadonlyArray<Row>> = []
          for (let at = 0; at < rows.length; at += size) chunks.push(rows.slice(at, at + size))
          return Effect.forEach(chunks, (chunk) => sql`INSERT INTO ${sql(table)} ${sql.insert(chunk)}`, { discard: true })
        },
        { discard: true }
      )

    /**
     * Held until the transaction ends: replicas starting together on an
     * empty database take it before looking, so only one of them imports.
     */
    const lockEmptyDatabase = sql`SELECT pg_advisory_xact_lock(${emptyDatabaseLock})`.pipe(Effect.asVoid)

    const hasOrganization = sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM organizations) AS found`.pipe(
      Effect.map((rows) => rows[0]?.found === true)
    )

    /**
     * Gathers planner statistics and marks the new pages all-visible, so
     * list queries right after a bulk import plan for the real row counts
     * and `count(*)` can be answered from an index alone. PGlite has no
     * autovacuum and would do neither by itself. VACUUM cannot run inside a
     * transaction block: call this after the import's transaction commits.
     */
    const vacuumAnalyze = (tables: ReadonlyArray<string>) =>
      tables.length === 0
        ? Effect.void
        : sql`VACUUM (ANALYZE) ${sql.csv(tables.map((table) => sql`${sql(table)}`))}`.pipe(Effect.asVoid)

    return { now, insert, lockEmptyDatabase, hasOrganization, vacuumAnalyze } as const
  })
}) {}
