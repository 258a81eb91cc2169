import { createHash } from "node:crypto"
import pg from "pg"
import { PLANNED_PER_CALL } from "./planned-per-call.js"

/**
 * Named prepared statements for every parameterized query, kept per
 * connection in a bounded least-recently-used cache.
 *
 * Why: @effect/sql-pg sends every statement unnamed, so PostgreSQL parses,
 * analyses and plans it on every call. On our hot reads planning was most of
 * the database time (the token check alone planned in 0.2 to 0.35 ms per
 * request). pg prepares a statement once per connection when the query has a
 * name; the name here is derived from the statement text, so the same text
 * always gets the same name and a different one never does.
 *
 * Only queries with parameters are named: a statement without any may be a
 * script of several statements (migrations), which the extended protocol
 * refuses. A connection keeps at most `capacity` statements; the least
 * recently used ones above it are deallocated when the connection goes back
 * to the pool, outside any transaction (a failed DEALLOCATE inside one would
 * abort it) and in order before the connection's next query.
 *
 * A statement whose best plan depends on its values (a full-text or
 * trigram search: a rare word wants its index, a common one a scan in order)
 * starts with PLANNED_PER_CALL and is left unnamed: after five calls
 * PostgreSQL may keep one generic plan for every value of a named
 * statement, and for a search that plan made some words 10 times slower.
 *
 * Not for the embedded database: PGlite runs one backend session for all
 * socket connections, so two connections preparing the same name collide.
 * Nor behind a pooler in transaction mode that does not track prepared
 * statements (DB_PREPARED_STATEMENTS=0 turns it off).
 */

const plannedPerCall = (text: string) => text.startsWith(PLANNED_PER_CALL)

const NAMES_REMEMBERED = 4096
const names = new Map<string, string>()

/** `tks_` and 96 bits of the text's SHA-256: a collision is not a practical concern. */
export const statementName = (text: string): string => {
  const known = names.get(text)
  if (known !== undefined) return known
  const name = `tks_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`
  // Statement texts are static in our code; a flood of distinct ones only
  // costs rehashing, never unbounded memory.
  if (names.size >= NAMES_REMEMBERED) names.clear()
  names.set(text, name)
  return name
}

// pg's per-connection record of the statements the server has parsed; no public API says it.
interface ParsedStatements {
  readonly connection: { readonly parsedStatements: Record<string, string | undefined> }
}

type QueryConfig = { readonly text: string; readonly values?: ReadonlyArray<unknown>; readonly name?: string }

const isPlainConfig = (config: unknown): config is QueryConfig =>
  typeof config === "object" && config !== null &&
  typeof (config as { submit?: unknown }).submit !== "function" &&
  typeof (config as { text?: unknown }).text === "string"

interface PreparingClient extends pg.Client {
  /** Deallocates the least recently used statements above the capacity. */
  trimPrepared(): void
}

/**
 * Whether the pool's server may hold named statements: unknown (off) until
 * its first connection says which server it is (`servesNamedStatements`).
 */
export interface PreparingSwitch {
  enabled: boolean
}

/**
 * A server that is PGlite behind a socket (a DATABASE_URL may point at one)
 * runs one session for every connection: no names there.
 */
export const servesNamedStatements = (version: string): boolean => !/PGlite|emscripten/i.test(version)

/**
 * A pg Client class for `new pg.Pool({ Client })` that names parameterized
 * queries while `switched.enabled` (always, when none is given).
 */
export const preparingClient = (capacity: number, switched: PreparingSwitch = { enabled: true }): typeof pg.Client =>
  class extends pg.Client implements PreparingClient {
    // Insertion order is recency: a use moves the name to the end.
    readonly #recent = new Set<string>()

    #use(text: string): string {
      const name = statementName(text)
      this.#recent.delete(name)
      this.#recent.add(name)
      return name
    }

    override query(...args: Array<any>): any {
      const [config, values, callback] = args
      if (!switched.enabled) return super.query(config, values, callback)
      if (typeof config === "string" && Array.isArray(values) && values.length > 0 && !plannedPerCall(config)) {
        return super.query({ name: this.#use(config), text: config, values }, callback)
      }
      if (
        isPlainConfig(config) && config.name === undefined && config.values !== undefined && config.values.length > 0 &&
        !plannedPerCall(config.text)
      ) {
        return super.query({ ...config, name: this.#use(config.text) } as any, values, callback)
      }
      return super.query(config, values, callback)
    }

    trimPrepared(): void {
      const parsed = (this as unknown as ParsedStatements).connection.parsedStatements
      for (const name of this.#recent) {
        if (this.#recent.size <= capacity) break
        this.#recent.delete(name)
        if (parsed[name] === undefined) continue
        super.query(`DEALLOCATE ${name}`, () => {
          delete parsed[name]
        })
      }
    }
  }

/** For the pool's "release" event: trims a connection that stays open. */
export const trimOnRelease = (error: Error | null | undefined, client: pg.PoolClient) => {
  const preparing = client as unknown as Partial<PreparingClient> & { readonly _ending: boolean }
  if (error == null && preparing.trimPrepared !== undefined && !preparing._ending) preparing.trimPrepared()
}
