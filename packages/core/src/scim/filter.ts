import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Data, Either } from "effect"
import { type Filter, parse } from "scim2-parse-filter"

type Sql = SqlClient.SqlClient

/**
 * SCIM filters (RFC 7644 section 3.4.2.2) as SQL: the filter text is parsed
 * by `scim2-parse-filter` (a maintained parser of the RFC's grammar), and
 * each comparison becomes a condition on the column the resource maps the
 * attribute to, so a directory's `userName eq "…"` is an index lookup, not
 * a scan of every person in memory. Only the attributes a resource lists
 * can be filtered on; anything else is `invalidFilter`, never a silent
 * match-all.
 */

/** How an attribute compares: strings case-insensitively unless case-exact, booleans and times by value. */
export type ScimAttributeKind = "string" | "caseExact" | "boolean" | "dateTime"

export interface ScimAttribute {
  readonly kind: ScimAttributeKind
  /** The SQL expression holding the attribute's value (null when absent). */
  readonly column: Fragment
}

/** A resource's filterable attributes, by lower-case path (`emails.value`, `name.givenname`). */
export type ScimAttributes = ReadonlyMap<string, ScimAttribute>

export class ScimFilterInvalid extends Data.TaggedError("ScimFilterInvalid")<{ readonly detail: string }> {}

const CORE_SCHEMA_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i

/** An attribute path as looked up: schema prefix of the core schemas dropped, lower case (SCIM attribute names are case-insensitive). */
const pathKey = (path: string) => path.replace(CORE_SCHEMA_PREFIX, "").toLowerCase()

const ORDERING = { gt: ">", ge: ">=", lt: "<", le: "<=" } as const

const quoted = (value: unknown) => JSON.stringify(value)

/** The condition for one comparison; Left when the attribute or the value does not fit. */
const comparison = (
  sql: Sql,
  attributes: ScimAttributes,
  path: string,
  op: string,
  value: unknown
): Either.Either<Fragment, ScimFilterInvalid> => {
  const attribute = attributes.get(pathKey(path))
  if (attribute === undefined) {
    return Either.left(new ScimFilterInvalid({ detail: `"${path}" cannot be filtered on; filterable: ${[...attributes.keys()].join(", ")}` }))
  }
  const column = attribute.column
  if (op === "pr") return Either.right(attribute.kind === "string" || attribute.kind === "caseExact" ? sql`(${column} IS NOT NULL AND ${column} <> '')` : sql`${column} IS NOT NULL`)
  const wrong = (expected: string) => Either.left(new ScimFilterInvalid({ detail: `${path} ${op} needs ${expected}, not ${quoted(value)}` }))
  switch (attribute.kind) {
    case "boolean": {
      if (typeof value !== "boolean") return wrong("true or false")
      if (op === "eq") return Either.right(sql`${column} = ${value}`)
      if (op === "ne") return Either.right(sql`${column} IS DISTINCT FROM ${value}`)
      return Either.left(new ScimFilterInvalid({ detail: `${path} is a boolean: only eq, ne and pr apply` }))
    }
    case "dateTime": {
      const at = typeof value === "string" ? new Date(value) : null
      if (at === null || Number.isNaN(at.getTime())) return wrong("a date and time (xsd:dateTime)")
      if (op === "eq") return Either.right(sql`${column} = ${at}`)
      if (op === "ne") return Either.right(sql`${column} IS DISTINCT FROM ${at}`)
      if (op in ORDERING) return Either.right(sql`${column} ${sql.literal(ORDERING[op as keyof typeof ORDERING])} ${at}`)
      return Either.left(new ScimFilterInvalid({ detail: `${path} is a date and time: ${op} does not apply` }))
    }
    default: {
      if (typeof value !== "string") return wrong("a string")
      const exact = attribute.kind === "caseExact"
      const left = exact ? column : sql`lower(${column})`
      const right = exact ? value : value.toLowerCase()
      switch (op) {
        case "eq":
          return Either.right(sql`${left} = ${right}`)
        case "ne":
          return Either.right(sql`${left} IS DISTINCT FROM ${right}`)
        case "co":
          return Either.right(sql`strpos(${left}, ${right}) > 0`)
        case "sw":
          return Either.right(sql`starts_with(${left}, ${right})`)
        case "ew":
          return Either.right(sql`right(${left}, ${right.length}) = ${right}`)
        default:
          return Either.right(sql`${left} ${sql.literal(ORDERING[op as keyof typeof ORDERING])} ${right}`)
      }
    }
  }
}

const toSql = (sql: Sql, attributes: ScimAttributes, filter: Filter, prefix: string): Either.Either<Fragment, ScimFilterInvalid> => {
  switch (filter.op) {
    case "and":
    case "or": {
      const parts: Array<Fragment> = []
      for (const part of filter.filters) {
        const condition = toSql(sql, attributes, part, prefix)
        if (Either.isLeft(condition)) return condition
        parts.push(condition.right)
      }
      return Either.right(sql`(${sql.join(filter.op === "and" ? " AND " : " OR ", false)(parts)})`)
    }
    case "not":
      return Either.map(toSql(sql, attributes, filter.filter, prefix), (inner) => sql`NOT coalesce(${inner}, false)`)
    case "[]":
      // emails[type eq "work" and value eq "…"]: the inner paths are sub-attributes of the outer one.
      return toSql(sql, attributes, filter.valFilter, `${filter.attrPath}.`)
    case "pr":
      return comparison(sql, attributes, prefix + filter.attrPath, "pr", null)
    default:
      return comparison(sql, attributes, prefix + filter.attrPath, filter.op, filter.compValue)
  }
}

/**
 * The SQL condition of a SCIM filter over `attributes`; Left (for a 400
 * `invalidFilter`) when the text does not parse or names an attribute or
 * comparison the resource does not support.
 */
export const scimFilterSql = (sql: Sql, attributes: ScimAttributes, text: string): Either.Either<Fragment, ScimFilterInvalid> => {
  let filter: Filter
  try {
    filter = parse(text)
  } catch (cause) {
    return Either.left(new ScimFilterInvalid({ detail: `The filter does not parse: ${cause instanceof Error ? cause.message : String(cause)}` }))
  }
  return toSql(sql, attributes, filter, "")
}
