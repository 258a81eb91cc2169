import { containsPattern } from "@tks/core/common/text-search"
import { type Fragment, ident, join, sql } from "../sql.js"
import { contentVisible, type Reader } from "./access.js"

// Mirrors packages/core/src/content/repo.ts (page), shared/keyset.ts
// (newestFirst) and shared/text-search.ts (titleHasEveryWord).

/** keyset.ts newestFirst (by created_at). */
export const newestFirst = {
  column: (alias: string): Fragment =>
    sql`(extract(epoch FROM ${ident(alias)}.${ident("created_at")}) * 1000000)::bigint::text AS created_us`,
  after: (alias: string, key: readonly [string, string] | null): Fragment =>
    key === null
      ? sql``
      : sql`AND (${ident(alias)}.${ident("created_at")}, ${ident(alias)}.id) < (timestamptz 'epoch' + ${key[0]}::bigint * interval '1 microsecond', ${
        key[1]
      })`
} as const

const titleHasEveryWord = (alias: string, words: ReadonlyArray<string>): Fragment =>
  join(" ", words.map((word) => sql`AND lower(${ident(alias)}.title) LIKE lower(${containsPattern(word)}) ESCAPE '\\'`))

const columns = sql`c.id, c.title, c.type, c.summary, c.duration_seconds, c.created_at, c.updated_at`

export const contentPage = (input: {
  readonly orgId: string
  readonly reader: Reader
  readonly type: string | null
  readonly words: ReadonlyArray<string>
  readonly after: readonly [string, string] | null
  readonly limit: number
}) =>
  sql`
        SELECT ${columns}, ${newestFirst.column("c")}
        FROM content c
        WHERE c.org_id = ${input.orgId} AND ${contentVisible(input.reader, "c")}
          ${input.type === null ? sql`` : sql`AND c.type = ${input.type}`}
          ${titleHasEveryWord("c", input.words)}
          ${newestFirst.after("c", input.after)}
        ORDER BY c.created_at DESC, c.id DESC
        LIMIT ${input.limit}`
