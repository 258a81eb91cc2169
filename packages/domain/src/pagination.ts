import { Option, Schema, SchemaAST } from "effect"
import { Count } from "./common.js"

const limitMessage = () => "limit must be an integer from 1 to 100"

/**
 * `limit` as it arrives in the query string: a decimal integer written with
 * digits only (no sign, space, exponent, hex or leading zero). Published as
 * the integer it stands for, so generated clients send numbers.
 */
const LimitText = Schema.String.pipe(Schema.pattern(/^[1-9][0-9]{0,2}$/, { message: limitMessage })).annotations({
  jsonSchema: { type: "integer", minimum: 1, maximum: 100, default: 50 }
})

/** `limit`: 1 to 100, default 50. Optional on the wire; defaulted by the service (a url param with a schema default would become required on `HttpApiClient`). */
export const Limit = Schema.transform(LimitText, Schema.Int.pipe(Schema.between(1, 100, { message: limitMessage })), {
  strict: true,
  decode: (text) => Number(text),
  encode: (limit) => String(limit)
})
export const defaultLimit = 50

/** An envelope is a named component when its item is (`Member` -> `MemberCountedPage`), so clients share one type per listing. */
const itemName = (item: Schema.Schema.Any) => Option.getOrUndefined(SchemaAST.getJSONIdentifier(item.ast))

const nextCursor = Schema.NullOr(Schema.String).annotations({
  description: "Pass as `cursor` to read the next page; null on the last page"
})

/** The list envelope `{data, nextCursor}`, without `total`. */
export const Page = <A, I, R>(item: Schema.Schema<A, I, R>) => {
  const envelope = Schema.Struct({ data: Schema.Array(item), nextCursor })
  const name = itemName(item)
  return name === undefined
    ? envelope
    : envelope.annotations({ identifier: `${name}Page`, description: `One page of ${name} records` })
}

/** The list envelope for listings that carry a `total`. Named `<Item>CountedPage`, so it never shares a name with a `Page` of the same item. */
export const CountedPage = <A, I, R>(item: Schema.Schema<A, I, R>) => {
  const envelope = Schema.Struct({
    data: Schema.Array(item),
    nextCursor,
    total: Count
  })
  const name = itemName(item)
  return name === undefined
    ? envelope
    : envelope.annotations({
      identifier: `${name}CountedPage`,
      description: `One page of ${name} records, with how many the whole listing holds`
    })
}

/**
 * The list envelope for a list that is never paginated (categories,
 * search): `nextCursor` is always null. Named `<Item>List`, so it is never
 * taken for a paginated listing.
 */
export const List = <A, I, R>(item: Schema.Schema<A, I, R>) => {
  const envelope = Schema.Struct({
    data: Schema.Array(item),
    nextCursor: Schema.Null.annotations({ description: "Always null: this list is one page" })
  })
  const name = itemName(item)
  return name === undefined
    ? envelope
    : envelope.annotations({ identifier: `${name}List`, description: `Every ${name} record of the answer, on one page` })
}

/** A boolean query parameter: only `true` and `false` are accepted. Published as a boolean. */
export const BooleanFromQuery = Schema.transform(
  Schema.Literal("true", "false").annotations({ jsonSchema: { type: "boolean" } }),
  Schema.Boolean,
  { strict: true, decode: (text) => text === "true", encode: (flag) => (flag ? "true" : "false") }
)
