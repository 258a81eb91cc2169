import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"

/** `query` as a LIKE/ILIKE pattern matching it anywhere, its own wildcards (`%`, `_`, `\`) taken literally (use with ESCAPE '\'). */
export const containsPattern = (query: string): string => `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * `AND` the title of row `alias` holds every one of `words` (lower-cased
 * already: `titleQueryWords`), in any order. Each word is its own `LIKE` so
 * that every one can be an index condition on a trigram index (a
 * `LIKE ALL (array)` cannot be). No words: no condition.
 */
export const titleHasEveryWord = (sql: SqlClient.SqlClient, alias: string, words: ReadonlyArray<string>): Fragment =>
  sql.join(" ", false)(
    words.map((word) => sql`AND lower(${sql(alias)}.title) LIKE lower(${containsPattern(word)}) ESCAPE '\\'`)
  )
