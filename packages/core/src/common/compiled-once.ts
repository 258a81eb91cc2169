import type { SqlClient, Statement } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { Effect } from "effect"
import { direct } from "@tks/db/direct"

// Stands for the one value that changes between calls while the text is compiled.
const SLOT = "\u0000compiled-once-slot\u0000"

/**
 * A statement whose text is compiled once: `build(value)` is composed and
 * compiled with a placeholder the first time, and every call after that
 * sends the same text with `value` in the placeholder's parameter.
 *
 * Why: composing a statement from fragments and compiling it walks every
 * fragment on every call. For the token check, which every authenticated
 * request runs, that was a third of the statement's cost in Node. The text
 * sent is exactly the one `build` would give (the same prepared statement);
 * `build` must use its value as one plain parameter, and only there. It runs
 * `direct` (@tks/db/direct).
 */
export const compiledOnce = <A extends object>(
  sql: SqlClient.SqlClient,
  build: (value: string) => Statement.Statement<A>
): (value: string) => Effect.Effect<ReadonlyArray<A>, SqlError> => {
  let compiled: { readonly text: string; readonly params: ReadonlyArray<unknown>; readonly slot: number } | undefined
  return (value) => {
    if (compiled === undefined) {
      const [text, params] = build(SLOT).compile()
      const slot = params.indexOf(SLOT)
      if (slot === -1 || params.lastIndexOf(SLOT) !== slot) {
        throw new Error("compiledOnce: the value must be exactly one parameter of the statement")
      }
      compiled = { text, params, slot }
    }
    const params = compiled.params.slice()
    params[compiled.slot] = value
    return direct(sql, sql.unsafe<A>(compiled.text, params))
  }
}
