import type { ParseResult } from "effect"
import { formatPath } from "./errors.js"

// Alternatives a union tried at one path: each says what it expected, all about the same value.
const alternatives = [
  { pattern: /^Expected (.+), actual (.+)$/s, render: (expected: string, actual: string) => `expected ${expected}, got ${actual}` },
  { pattern: /^(is unexpected), expected: (.+)$/s, render: (expected: string) => `is not a field here; expected one of ${expected}` }
] as const

/** Effect quotes the whole value it refused; a problem line quotes only its start. */
const shorten = (actual: string): string => (actual.length > 60 ? `${actual.slice(0, 60)}...` : actual)

/** Effect names a struct or an array by its schema; an operator reads a JSON document. */
const describe = (expected: string): string =>
  expected === "Struct (Encoded side)" ? "an object" : expected.startsWith("ReadonlyArray<") ? "an array" : expected

const isUnder = (path: string, other: string) => other.startsWith(`${path}.`) || other.startsWith(`${path}[`)

/**
 * Decode issues as one line per path an operator can act on. The
 * alternatives of a union of literals ("owner" | "admin" ...) become one
 * line. Every optional field adds an "Expected undefined" next to the real
 * problem, and every nullable one an "Expected null": those are dropped when
 * the same value has a problem of its own (a timestamp that is not one) or a
 * deeper one, and kept as an alternative of a plain type mismatch
 * (`expected string | null, got 5`).
 */
export const problemLines = (issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>): Array<string> => {
  const paths = issues.map((issue) => formatPath(issue.path))
  const shadowed = (issue: ParseResult.ArrayFormatterIssue, i: number): boolean => {
    const path = paths[i] ?? ""
    const here = issues.filter((_, j) => j !== i && paths[j] === path)
    const deeper = paths.some((other) => isUnder(path, other))
    if (issue.message.startsWith("Expected undefined, actual")) return deeper || here.length > 0
    if (!issue.message.startsWith("Expected null, actual")) return false
    return deeper || here.some((other) => !alternatives[0].pattern.test(other.message))
  }
  const lines: Array<string> = []
  const merged = new Map<string, { readonly options: Array<string>; readonly line: number }>()
  issues.forEach((issue, i) => {
    if (shadowed(issue, i)) return
    const path = paths[i] ?? ""
    for (const { pattern, render } of alternatives) {
      const match = pattern.exec(issue.message)
      const [first, second] = [match?.[1], match?.[2]]
      if (first === undefined || second === undefined) continue
      // Literal mismatches group by the actual value; unexpected fields by the field.
      const [option, subject] = pattern === alternatives[0].pattern ? [describe(first), shorten(second)] : [second, first]
      const key = `${path}\u0000${pattern.source}\u0000${subject}`
      const previous = merged.get(key)
      if (previous === undefined) {
        merged.set(key, { options: [option], line: lines.length })
        lines.push(`${path}: ${render(option, subject)}`)
      } else {
        previous.options.push(option)
        lines[previous.line] = `${path}: ${render(previous.options.join(" | "), subject)}`
      }
      return
    }
    const line = `${path}: ${issue.message}`
    if (!lines.includes(line)) lines.push(line)
  })
  return lines
}
