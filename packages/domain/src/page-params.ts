import { Schema } from "effect"
import { Limit } from "./pagination.js"

/**
 * `cursor` and `limit`, taken by every paginated listing. One
 * definition for the HTTP contract, the service signatures and the MCP tool
 * inputs; a listing with filters spreads `PageParams.fields` into its own.
 */
export const PageParams = Schema.Struct({
  cursor: Schema.optional(Schema.String.annotations({ description: "Opaque cursor from a previous page's nextCursor" })),
  limit: Schema.optional(Limit.annotations({ description: "Page size, 1 to 100 (default 50)" }))
})
export type PageParams = typeof PageParams.Type
