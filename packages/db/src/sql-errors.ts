import type { SqlError } from "@effect/sql/SqlError"
import { Predicate } from "effect"

/**
 * What a database failure says, for the transports that turn it into an
 * answer: each transport maps these kinds in one place.
 * Only the database being away, or too slow, is a 503 the caller may retry:
 * mapping every SqlError to 503 turned a NUL byte in a query into a fake
 * outage, and a cancelled statement into "the database is unavailable".
 *
 * - unavailable: SQLSTATE class 08 (connection), 57P (shutdown), 53 (out
 *   of connections or resources), and connection failures without a
 *   SQLSTATE (refused, reset, timed out, terminated, not queryable, the
 *   pool could not hand out a connection) -> 503 SERVICE_UNAVAILABLE;
 * - timeout: 57014 cancelled by the statement timeout -> 503
 *   DATABASE_TIMEOUT (the database is there, but too busy to answer in
 *   time); 57014 for any other reason (a cancel on user request) is other;
 * - data: class 22 (a value the database refused) -> the caller's 400;
 * - constraint: class 23 (a rule the service did not check first) -> 409;
 * - other: anything else is our bug -> a logged 500.
 */
type SqlErrorKind = "unavailable" | "timeout" | "data" | "constraint" | "other"

// A SQLSTATE: five characters whose class is two digits or F0, HV, P0, XX.
// Node's system error codes (EPIPE, ...) never start that way.
const SQLSTATE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/

const SYSTEM_CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN"
])

// pg, pg-pool and our socket watchdog (@tks/db) say these without a code.
const CONNECTION_MESSAGE =
  /connection terminated|not queryable|query read timeout|timeout exceeded when trying to connect|after calling end on the pool|no answer from the database/i

// PostgreSQL's wording for 57014 when statement_timeout fired (the same
// SQLSTATE also means "due to user request", a cancel someone sent).
const STATEMENT_TIMEOUT_MESSAGE = /statement timeout/i

// What sql-pg itself says when it could not get or keep a connection.
const ACQUIRE_MESSAGE = /^(?:Failed to acquire connection|Connection error)/

/** The errors on the cause chain, nearest first (pg puts the SQLSTATE on `DatabaseError.code`). */
export const causes = (error: SqlError): ReadonlyArray<unknown> => {
  const chain: Array<unknown> = []
  let current: unknown = error.cause
  while (current !== undefined && current !== null && chain.length < 5) {
    chain.push(current)
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return chain
}

const codeOf = (value: unknown): string | undefined =>
  Predicate.hasProperty(value, "code") && typeof value.code === "string" ? value.code : undefined

const messageOf = (value: unknown): string =>
  Predicate.hasProperty(value, "message") && typeof value.message === "string" ? value.message : ""

/** The SQLSTATE the database answered with, if it answered at all. */
export const sqlStateOf = (error: SqlError): string | undefined => {
  for (const cause of causes(error)) {
    const code = codeOf(cause)
    if (code !== undefined && SQLSTATE.test(code)) return code
  }
  return undefined
}

export const classifySqlError = (error: SqlError): SqlErrorKind => {
  const state = sqlStateOf(error)
  if (ACQUIRE_MESSAGE.test(error.message)) return "unavailable"
  if (state !== undefined) {
    if (state.startsWith("08") || state.startsWith("57P") || state.startsWith("53")) return "unavailable"
    if (state === "57014") {
      return causes(error).some((cause) => STATEMENT_TIMEOUT_MESSAGE.test(messageOf(cause))) ? "timeout" : "other"
    }
    if (state.startsWith("22")) return "data"
    if (state.startsWith("23")) return "constraint"
    return "other"
  }
  for (const cause of causes(error)) {
    const code = codeOf(cause)
    if (code !== undefined && SYSTEM_CONNECTION_CODES.has(code)) return "unavailable"
    if (CONNECTION_MESSAGE.test(messageOf(cause))) return "unavailable"
  }
  return "other"
}


/** A log line's worth: the client's message, the SQLSTATE and the nearest cause's message. */
export const describeSqlError = (error: SqlError) => {
  const state = sqlStateOf(error)
  const detail = causes(error).map(messageOf).find((message) => message !== "") ?? ""
  return state === undefined ? `${error.message}: ${detail}` : `${error.message}: [${state}] ${detail}`
}
