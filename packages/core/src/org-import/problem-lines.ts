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

/** Every proper prefix of each path that ends at a segment boundary: the paths that have a problem below them. */
const ancestorsOf = (paths: ReadonlyArray<string>): ReadonlySet<string> => {
  const ancestors = new Set<string>()
  for (const path of paths) {
    for (let at = 1; at < path.length; at++) if (path[at] === "." || path[at] === "[") ancestors.add(path.slice(0, at))
  }
  return ancestors
}

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
  const deeper = ancestorsOf(paths)
  const messagesAt = new Map<string, Array<string>>()
  issues.forEach((issue, i) => {
    const path = paths[i] ?? ""
    const messages = messagesAt.get(path)
    if (messages === undefined) messagesAt.set(path, [issue.message])
    else messages.push(issue.message)
  })
  const shadowed = (issue: ParseResult.ArrayFormatterIssue, path: string): boolean => {
    const others = (messagesAt.get(path) ?? []).filter((message) => message !== issue.message)
    if (issue.message.startsWith("Expected undefined, actual")) return deeper.has(path) || others.length > 0
    if (!issue.message.startsWith("Expected null, actual")) return false
    return deeper.has(path) || others.some((message) => !alternatives[0].pattern.test(message))
  }
  const lines: Array<string> = []
  const seen = new Set<string>()
  const merged = new Map<string, { readonly options: Array<string>; readonly line: number }>()
  issues.forEach((issue, i) => {
    const path = paths[i] ?? ""
    if (shadowed(issue, path)) return
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
    if (!seen.has(line)) lines.push(line)
    seen.add(line)
  })
  return lines
}
