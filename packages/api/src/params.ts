import { Schema } from "effect"
import { Limit } from "@tks/domain/pagination"

/** `cursor` and `limit`, taken by every paginated listing (SPEC 4.11). */
export const PageParams = {
  cursor: Schema.optional(Schema.String.annotations({ description: "Opaque cursor from a previous page's nextCursor" })),
  limit: Schema.optional(Limit.annotations({ description: "Page size, 1 to 100 (default 50)" }))
}

/** A path id. Not pattern checked: an id that is not ours is simply absent (404). */
export const IdPath = Schema.Struct({ id: Schema.String })
