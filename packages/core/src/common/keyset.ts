import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Schema } from "effect"

/**
 * The orderings lists are paginated by (keyset, never OFFSET). Each kind
 * owns its cursor key's schema (checked whole before the key reaches SQL: an
 * unchecked id once reached PostgreSQL as a cast error and a 500), how to read the key off a row, and the SQL that resumes
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
 * Newest first by a timestamp column: `(column, id)` descending. The key
 * carries the timestamp as whole microseconds since the epoch, in text (a JS
 * Date keeps only milliseconds, and rows created in the same millisecond
 * must not be skipped); digits only, so the cast to bigint in SQL cannot fail.
 */
export const newestFirstBy = (timestamp: string) => ({
  key: Schema.Tuple(Schema.String.pipe(Schema.pattern(/^-?\d{1,18}$/)), Schema.String.pipe(Schema.maxLength(100))),
  keyOf: (row: { readonly created_us: string; readonly id: string }): readonly [string, string] => [row.created_us, row.id],
  /** Selects `created_us`, the exact key, for `keyOf`. */
  column: (sql: Sql, alias: string): Fragment =>
    sql`(extract(epoch FROM ${sql(alias)}.${sql(timestamp)}) * 1000000)::bigint::text AS created_us`,
  after: (sql: Sql, alias: string, key: readonly [string, string] | null): Fragment =>
    key === null
      ? sql``
      : sql`AND (${sql(alias)}.${sql(timestamp)}, ${sql(alias)}.id) < (timestamptz 'epoch' + ${key[0]}::bigint * interval '1 microsecond', ${
        key[1]
      })`
} as const)

/** Oldest first by a timestamp column: `(column, id)` ascending, the key as `newestFirstBy`'s. */
export const oldestFirstBy = (timestamp: string) => {
  const newest = newestFirstBy(timestamp)
  return {
    ...newest,
    after: (sql: Sql, alias: string, key: readonly [string, string] | null): Fragment =>
      key === null
        ? sql``
        : sql`AND (${sql(alias)}.${sql(timestamp)}, ${sql(alias)}.id) > (timestamptz 'epoch' + ${key[0]}::bigint * interval '1 microsecond', ${
          key[1]
        })`
  } as const
}

/** Newest first by `created_at`, the usual order of records listed by when they were made. */
export const newestFirst = newestFirstBy("created_at")

/**
 * By login name: `(lower(email) COLLATE "C", id)` ascending (users_by_login).
 * The login name is the email, lower-cased and compared byte by byte, so the
 * order does not depend on the database's collation.
 */
const loginOf = (sql: Sql, alias: string): Fragment => sql`(lower(${sql(alias)}.email) COLLATE "C")`

export const byLogin = {
  key: Schema.Tuple(Schema.String, Schema.String.pipe(Schema.maxLength(100))),
  keyOf: (row: { readonly login: string; readonly id: string }): readonly [string, string] => [row.login, row.id],
  /** The sort expression of users row `alias`. */
  login: loginOf,
  after: (sql: Sql, alias: string, key: readonly [string, string] | null): Fragment =>
    key === null ? sql`` : sql`AND (${loginOf(sql, alias)}, ${sql(alias)}.id) > (${key[0]}, ${key[1]})`
} as const
