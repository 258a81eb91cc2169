import type { HttpServerRequest } from "@effect/platform"
import type { Tracer } from "effect"
import { summarizeSql, type SqlSummary } from "./sql-summary.js"

/**
 * The names and attributes of OpenTelemetry's stable HTTP and database
 * conventions, on the spans the platform and @effect/sql make with their
 * own (`http.server GET`, `sql.execute` with the operation "execute"). The
 * span rules (./span-rules.ts) pass each attribute set on a server or SQL
 * span through here, so this runs only with tracing on.
 *
 * - HTTP server span: named `{method} {route}` once the router has matched a
 *   route (the template as the OpenAPI document writes it, `{id}` for the
 *   platform's `:id`, also in `http.route`), `{method}` alone before or
 *   without one (a 404). Of the headers the platform records, only those an
 *   operator looks for stay: the request's `x-request-id`, `content-length`
 *   (and `user_agent.original`, recorded apart), the answer's `x-request-id`
 *   (the id the service used, its own when the caller sent none); the rest,
 *   Authorization and cookies included, are not recorded.
 * - SQL span: named by its statement's summary, with `db.operation.name`,
 *   `db.collection.name` and `db.query.summary` (./sql-summary.ts), beside
 *   `db.query.text` (placeholders, never the values) and the client's
 *   `db.system.name`, `db.namespace`, `server.address`, `server.port`.
 */

/** The OpenTelemetry span behind an Effect span: its exported name, and attributes Effect would turn to JSON (a list). */
interface OtelSpan {
  updateName(name: string): unknown
  setAttribute(key: string, value: ReadonlyArray<string>): unknown
}

/** Applies a convention to one attribute: true when it set it its own way or dropped it, false to set it as given. */
type Convention = (span: Tracer.Span, otel: OtelSpan, key: string, value: unknown) => boolean

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"])

/** A method as a span name: one of HTTP's, or `HTTP` for any other (the convention: names stay few). */
const methodName = (method: unknown): string => (typeof method === "string" && METHODS.has(method) ? method : "HTTP")

/** The server span's name before routing (the platform's span name generator, set by ./tracing.ts). */
export const serverSpanName = (request: HttpServerRequest.HttpServerRequest): string => methodName(request.method)

// The router's routes are few and fixed: each template is rewritten once.
const templates = new Map<string, string>()

/** `/v1/members/:id` as `/v1/members/{id}`. */
const routeTemplate = (path: string): string => {
  let template = templates.get(path)
  if (template === undefined) {
    template = path.replace(/:([A-Za-z0-9_]+)\??/g, "{$1}")
    templates.set(path, template)
  }
  return template
}

const KEPT_HEADERS = new Set([
  "http.request.header.x-request-id",
  "http.request.header.content-length",
  "http.response.header.x-request-id"
])

const httpServerConvention: Convention = (span, otel, key, value) => {
  if (key === "http.route" && typeof value === "string") {
    const route = routeTemplate(value)
    span.attribute(key, route)
    otel.updateName(`${methodName(span.attributes.get("http.request.method"))} ${route}`)
    return true
  }
  if (key.startsWith("http.request.header.") || key.startsWith("http.response.header.")) {
    // The convention's header attributes are lists of values.
    if (KEPT_HEADERS.has(key)) otel.setAttribute(key, [String(value)])
    return true
  }
  return false
}

// Statement texts are as many as the queries in the code (and their IN-list
// lengths); the bound only guards against text made on the fly.
const summaries = new Map<string, SqlSummary | undefined>()
const SUMMARIES_KEPT = 2_000

const summaryOf = (text: string): SqlSummary | undefined => {
  if (summaries.has(text)) return summaries.get(text)
  if (summaries.size >= SUMMARIES_KEPT) summaries.clear()
  const summary = summarizeSql(text)
  summaries.set(text, summary)
  return summary
}

const sqlConvention: Convention = (span, otel, key, value) => {
  // @effect/sql's own value names how it ran the statement ("execute"); the statement's operation comes with its text.
  if (key === "db.operation.name") return true
  if (key !== "db.query.text" || typeof value !== "string") return false
  span.attribute(key, value)
  const summary = summaryOf(value)
  if (summary === undefined) return true
  span.attribute("db.operation.name", summary.operation)
  if (summary.collection !== undefined) span.attribute("db.collection.name", summary.collection)
  span.attribute("db.query.summary", summary.summary)
  otel.updateName(summary.summary)
  return true
}

/** The convention for a span, by what made it: the platform's server span, @effect/sql's statement span; none for others. */
export const conventionFor = (span: Tracer.Span): Convention | undefined =>
  span.kind === "server" ? httpServerConvention : span.kind === "client" && span.name === "sql.execute" ? sqlConvention : undefined
