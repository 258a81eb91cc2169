/**
 * The smallest SQL template tag that writes statements exactly as our
 * server's `@effect/sql` does, so the templates in ./statements can be
 * copied from packages/core verbatim: every interpolated value is one
 * positional parameter (`$1`, `$2`, … in order of appearance, a repeated
 * value is a new parameter, an array is one parameter), a fragment is
 * inlined with its parameters renumbered, `ident("t.org_id")` is quoted as
 * `"t"."org_id"`, and `literal` is written as it is.
 */
export interface Fragment {
  readonly _tag: "Fragment"
  readonly strings: ReadonlyArray<string>
  readonly parts: ReadonlyArray<unknown>
}

interface Raw {
  readonly _tag: "Raw"
  readonly text: string
}

export interface Statement {
  readonly text: string
  readonly values: Array<unknown>
}

export const sql = (strings: TemplateStringsArray, ...parts: ReadonlyArray<unknown>): Fragment => ({ _tag: "Fragment", strings, parts })

/** An identifier, quoted per dotted part as @effect/sql-pg does. */
export const ident = (name: string): Raw => ({
  _tag: "Raw",
  text: name.split(".").map((part) => `"${part.replace(/"/g, "\"\"")}"`).join(".")
})

/** Text written into the statement as it is (never a caller's input). */
export const literal = (text: string): Raw => ({ _tag: "Raw", text })

const empty: Fragment = { _tag: "Fragment", strings: [""], parts: [] }

/** The fragments joined by `separator` (sql.join(separator, false) of @effect/sql). */
export const join = (separator: string, fragments: ReadonlyArray<Fragment>): Fragment =>
  fragments.length === 0
    ? empty
    : { _tag: "Fragment", strings: ["", ...fragments.slice(1).map(() => separator), ""], parts: fragments }

const isTagged = (value: unknown): value is Fragment | Raw =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date) &&
  ((value as { _tag?: unknown })._tag === "Fragment" || (value as { _tag?: unknown })._tag === "Raw")

const write = (fragment: Fragment, out: { text: string; values: Array<unknown> }) => {
  const { parts, strings } = fragment
  out.text += strings[0]!
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]
    if (isTagged(part)) {
      if (part._tag === "Raw") out.text += part.text
      else write(part, out)
    } else {
      out.values.push(part)
      out.text += `$${out.values.length}`
    }
    out.text += strings[i + 1]!
  }
}

/** The statement text and its parameters. */
export const compile = (fragment: Fragment): Statement => {
  const out = { text: "", values: [] as Array<unknown> }
  write(fragment, out)
  return out
}
