import { Schema } from "effect"

/** `limit`: 1 to 100, default 50 (SPEC 4.11). Optional on the wire; defaulted by the service (DESIGN pitfall 5). */
export const Limit = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.between(1, 100, { message: () => "limit must be an integer from 1 to 100" })
)
export const defaultLimit = 50

/** The list envelope of SPEC 2.1, without `total`. */
export const Page = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({ data: Schema.Array(item), nextCursor: Schema.NullOr(Schema.String) })

/** The list envelope for listings SPEC gives a `total`. */
export const CountedPage = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({ data: Schema.Array(item), nextCursor: Schema.NullOr(Schema.String), total: Schema.Number })

/** A boolean query parameter: only `true` and `false` are accepted. */
export const BooleanFromQuery = Schema.transformLiterals(["true", true], ["false", false])
