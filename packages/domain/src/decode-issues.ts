import type { ParseOptions } from "effect/SchemaAST"

/**
 * How every transport decodes a caller's input (an HTTP body or query, an MCP
 * tool's arguments, an /rpc payload): a field or parameter nobody declared is an error, not
 * ignored (a typo such as `lmit` would otherwise pass unnoticed), and every
 * problem is reported at once, not only the first.
 */
export const closedInputOptions: ParseOptions = { onExcessProperty: "error", errors: "all" }

/** Echoed input is cut to this many characters: a 9 KB value once made an 18 KB error body. */
export const ECHO_LIMIT = 40

/** At most ECHO_LIMIT characters of `text`, then "…" when cut (never splitting a surrogate pair). */
export const abbreviate = (text: string, limit = ECHO_LIMIT): string => {
  if (text.length <= limit) return text
  const cut = /[\uD800-\uDBFF]/.test(text[limit - 1] ?? "") ? limit - 1 : limit
  return `${text.slice(0, cut)}…`
}

/**
 * Schema decode errors (one issue per schema branch that failed, as
 * `ParseResult.ArrayFormatter` gives them), reshaped for callers of every
 * transport (an HTTP 400 body, an MCP tool error): one issue per parameter or
 * field, every allowed literal named (a union of literals yields one issue
 * per literal, and only the first used to be kept), and the echoed input cut
 * to a short prefix (a 9 KB value made an 18 KB answer, quoted twice).
 */
export interface DecodeIssue {
  readonly path?: ReadonlyArray<unknown> | undefined
  readonly message?: string | undefined
}

/** One problem of the input, as a 400 body's `issues` lists it. */
export interface IssueSummary {
  readonly path: string
  readonly message: string
}

const EXPECTED = /^Expected ([\s\S]+?), actual ([\s\S]*)$/
const QUOTED = /"((?:[^"\\]|\\.)*)"/g
// The optional wrapper's own branch says nothing useful when another branch spoke.
const OPTIONAL_BRANCH = /^Expected undefined, actual /
const MESSAGE_LIMIT = 300

/** The input as the formatter printed it (JSON), cut to a short prefix. */
const shortActual = (actual: string): string => {
  if (actual.length <= ECHO_LIMIT + 2) return actual
  try {
    const value: unknown = JSON.parse(actual)
    if (typeof value === "string") return JSON.stringify(abbreviate(value))
  } catch {
    // not JSON: cut as text
  }
  return abbreviate(actual)
}

/** Any quoted echo in a free-form message, cut. */
const shortMessage = (message: string): string =>
  abbreviate(
    message.replace(QUOTED, (whole, inner: string) => inner.length > ECHO_LIMIT ? shortActual(whole) : whole),
    MESSAGE_LIMIT
  )

const mergeMessages = (messages: ReadonlyArray<string>): string => {
  const useful = messages.length > 1 ? messages.filter((m) => !OPTIONAL_BRANCH.test(m)) : messages
  const chosen = useful.length > 0 ? useful : messages
  const parsed = chosen.map((message) => EXPECTED.exec(message))
  const actual = parsed[0]?.[2]
  if (actual !== undefined && parsed.every((match) => match !== null && match[2] === actual)) {
    const expected = [...new Set(parsed.map((match) => match![1]!))]
    return `Expected ${expected.join(" | ")}, actual ${shortActual(actual)}`
  }
  return shortMessage(chosen[0] ?? "is invalid")
}

/** Whether `inner` lies under `outer` (a field of it, at any depth). */
const isBelow = (inner: string, outer: string) => outer === "" ? inner !== "" : inner.startsWith(`${outer}.`)

/**
 * One issue per path, in the order the paths first appear. An optional
 * object with a problem inside also fails its "or left out" branch at its
 * own path; that says nothing the inner issue does not, and is left out.
 */
export const summarizeDecodeIssues = (issues: ReadonlyArray<DecodeIssue>): ReadonlyArray<IssueSummary> => {
  const byPath = new Map<string, Array<string>>()
  for (const issue of issues) {
    const path = abbreviate((issue.path ?? []).map(String).join("."))
    const messages = byPath.get(path) ?? []
    messages.push(issue.message ?? "is invalid")
    byPath.set(path, messages)
  }
  const paths = [...byPath.keys()]
  return [...byPath]
    .filter(([path, messages]) =>
      !(messages.every((message) => OPTIONAL_BRANCH.test(message)) && paths.some((other) => isBelow(other, path)))
    )
    .map(([path, messages]) => ({ path, message: mergeMessages(messages) }))
}

/** The sentence of the whole answer: its first issue, with the path in front. */
export const decodeErrorMessage = (issues: ReadonlyArray<IssueSummary>): string => {
  const first = issues[0]
  if (first === undefined) return "The request is invalid"
  return first.path === "" ? first.message : `${first.path}: ${first.message}`
}
