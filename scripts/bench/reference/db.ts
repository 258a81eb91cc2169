import { createHash } from "node:crypto"
import pg from "pg"
import { compile, type Fragment } from "./sql.js"

export interface DatabaseOptions {
  readonly url: string
  /** Connections in the pool (the server's DB_POOL_MAX, default 10). */
  readonly poolMax: number
  /** The server's DB_STATEMENT_TIMEOUT_MS (default 15,000). */
  readonly statementTimeoutMs: number
  /**
   * Named prepared statements (`{ name, text, values }`): parsed and planned
   * once per connection. "auto": on a real PostgreSQL server, not on the
   * embedded PGlite, where every socket shares one backend session and two
   * connections' statements of the same name would collide.
   */
  readonly named: boolean | "auto"
  /** Called with every statement before it is sent (the body-diff test compares them with the server's). */
  readonly onStatement?: ((text: string, values: ReadonlyArray<unknown>) => void) | undefined
}

export interface Database {
  readonly query: <Row = any>(fragment: Fragment) => Promise<Array<Row>>
  /** Whether statements are sent as named prepared statements. */
  readonly named: boolean
  /** How many distinct statements were named so far (each is prepared once per connection). */
  readonly preparedNames: () => number
  readonly end: () => Promise<void>
}

/**
 * The same session settings as the server's pool (packages/db client.ts
 * sessionUrl): the statement timeout in the startup packet, pg's query
 * timeout a little later, and JIT off (it changes plans and their cost).
 */
const sessionUrl = (url: string, statementTimeoutMs: number) => {
  const parsed = new URL(url)
  parsed.searchParams.set("statement_timeout", String(statementTimeoutMs))
  parsed.searchParams.set("query_timeout", String(statementTimeoutMs + 2000))
  parsed.searchParams.set("options", "-c jit=off")
  return parsed.toString()
}

export const openDatabase = async (options: DatabaseOptions): Promise<Database> => {
  const pool = new pg.Pool({ connectionString: sessionUrl(options.url, options.statementTimeoutMs), max: options.poolMax, application_name: "tks-reference" })
  pool.on("error", () => {})
  const version = String((await pool.query<{ version: string }>("SELECT version()")).rows[0]?.version ?? "")
  const named = options.named === "auto" ? !/PGlite|emscripten/i.test(version) : options.named
  const names = new Map<string, string>()
  const nameOf = (text: string) => {
    let name = names.get(text)
    if (name === undefined) {
      name = `ref_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`
      names.set(text, name)
    }
    return name
  }
  const query = async <Row>(fragment: Fragment): Promise<Array<Row>> => {
    const { text, values } = compile(fragment)
    options.onStatement?.(text, values)
    // As our pool does: a statement planned per call is never named.
    const result = await pool.query(named && !text.startsWith("/* planned per call */") ? { name: nameOf(text), text, values } : { text, values })
    return result.rows as Array<Row>
  }
  return { query, named, preparedNames: () => names.size, end: () => pool.end() }
}
