import { readFileSync } from "node:fs"
import { Context, type Layer } from "effect"
import type { TestServerLive } from "../../apps/server/test/support/server.js"
import type { PlanNode } from "./plan.js"

// The server's SqlClient. scripts/ does not depend on @effect/sql, so its
// tag is made again from its key, typed as the service the server layer
// provides (the one with `unsafe`, leaving out PgClient's `listen`).
export type SqlClient = Exclude<Extract<Layer.Layer.Success<typeof TestServerLive>, { readonly unsafe: unknown }>, { readonly listen: unknown }>
export const Sql = Context.GenericTag<SqlClient>("@effect/sql/SqlClient")

export type ExplainJson = ReadonlyArray<{ readonly Plan: PlanNode; readonly "Execution Time": number; readonly "Planning Time": number }>

/** The embedded database's version, as packages/db pins it. */
export const pgliteVersion = () => {
  const manifest = JSON.parse(readFileSync(new URL("../../packages/db/package.json", import.meta.url), "utf8"))
  return String(manifest.dependencies?.["@electric-sql/pglite"] ?? "?")
}
