import { startReference } from "./server.js"

/**
 * The reference server as its own process (`tsx scripts/bench/reference/main.ts`),
 * configured by the environment our server reads: DATABASE_URL, PORT, HOST,
 * PUBLIC_URL, RATE_LIMIT_PER_MINUTE, CURSOR_SECRET, DB_POOL_MAX,
 * DB_STATEMENT_TIMEOUT_MS; REFERENCE_NAMED_STATEMENTS=true|false overrides
 * the choice by database (named on PostgreSQL, unnamed on PGlite).
 * Prints one line, `listening <url> named=<bool>`, once it serves.
 */
const env = process.env
const port = Number(env["PORT"] ?? 3000)
const named = env["REFERENCE_NAMED_STATEMENTS"]
const reference = await startReference({
  url: env["DATABASE_URL"] ?? "",
  host: env["HOST"] ?? "127.0.0.1",
  port,
  publicUrl: (env["PUBLIC_URL"] ?? `http://localhost:${port}`).replace(/\/+$/, ""),
  requestsPerMinute: Number(env["RATE_LIMIT_PER_MINUTE"] ?? 600),
  cursorSecret: env["CURSOR_SECRET"],
  poolMax: Number(env["DB_POOL_MAX"] ?? 10),
  statementTimeoutMs: Number(env["DB_STATEMENT_TIMEOUT_MS"] ?? 15_000),
  named: named === undefined ? "auto" : named === "true"
})
console.log(`listening ${reference.url} named=${reference.named}`)
const stop = () => void reference.close().then(() => process.exit(0))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
