import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Schema } from "effect"

/**
 * The orderings lists are paginated by (keyset, never OFFSET). Each kind
 * owns its cursor key's schema (checked before the key reaches SQL: DESIGN
 * pitfall 17), how to read the key off a row, and the SQL that resumes
 * after a key. Repos put `after` in their WHERE and `columns` in their
 * SELECT; services hand the kind to `Pagination`.
 */
export interface Keyset<Key, Row> {
  readonly key: Schema.Schema<Key, any>
  readonly keyOf: (row: Row) => Key
}

type Sql = SqlClient.SqlClient

/** By name: `(sort_name, id)` ascending, where sort_name is the lower-cased name the indexes carry. */
export const byName = {
  key: Schema.Tuple(Schema.String, Schema.String),
  keyOf: (row: { readonly sort_name: string; readonly id: string }): readonly [string, string] => [row.sort_name, row.id],
  after: (sql: Sql, alias: string, key: readonly [string, string] | null): Fragment =>
    key === null ? sql`` : sql`AND (${sql(alias)}.sort_name, ${sql(alias)}.id) > (${key[0]}, ${key[1]})`
} as const

/**
 * Newest first: `(created_at, id)` descending. The key carries created_at as
 * whole microseconds since the epoch, in text (a JS Date keeps only
 * milliseconds, and rows created in the same millisecond must not be
 * skipped); digits only, so the cast to bigint in SQL cannot fail.
 */
export const newestFirst = {
  key: Schema.Tuple(Schema.String.pipe(Schema.pattern(/^-?\d{1,18}$/)), Schema.String.pipe(Schema.maxLength(100))),
  keyOf: (row: { readonly created_us: string; readonly id: string }): readonly [string, string] => [row.created_us, row.id],
  /** Selects `created_us`, the exact key, for `keyOf`. */
  column: (sql: Sql, alias: string): Fragment =>
    sql`(extract(epoch FROM ${sql(alias)}.created_at) * 1000000)::bigint::text AS created_us`,
  after: (sql: Sql, alias: string, key: readonly [string, string] | null): Fragment =>
    key === null
      ? sql``
      : sql`AND (${sql(alias)}.created_at, ${sql(alias)}.id) < (timestamptz 'epoch' + ${key[0]}::bigint * interval '1 microsecond', ${
        key[1]
      })`
} as const
