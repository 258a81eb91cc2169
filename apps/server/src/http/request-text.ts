import type { HttpServerResponse } from "@effect/platform"
import { abbreviate } from "@tks/domain/decode-issues"
import { errorResponse } from "./error-response.js"

/**
 * Path and query text is checked before routing: a NUL
 * byte in an id or a query used to reach PostgreSQL, which refused it
 * mid-statement, and the caller got a fake 503 outage. Invalid
 * percent-encoding or UTF-8 used to pass on as literal text, or as U+FFFD.
 * Any of these, and every other C0 control character or DEL, is a 400
 * naming the parameter. Body strings are checked by their schemas
 * (@tks/domain/text).
 */
interface TextIssue {
  readonly path: string
  readonly message: string
}

const MESSAGE = "must be valid percent-encoded UTF-8 text without NUL or other control characters"

// Anything that needs a closer look: an escape, or a raw control character.
const SUSPICIOUS = /[%\u0000-\u001f\u007f]/
const CONTROL = /[\u0000-\u001f\u007f]/

/** The decoded text, or undefined when the escapes are not valid UTF-8 or it holds a control character. */
const decodeStrict = (raw: string, plusIsSpace: boolean): string | undefined => {
  let decoded: string
  try {
    decoded = decodeURIComponent(plusIsSpace ? raw.replaceAll("+", " ") : raw)
  } catch {
    return undefined
  }
  return CONTROL.test(decoded) ? undefined : decoded
}

/** The first problem in a request target (path and query), or undefined when its text is sound. */
export const requestTextIssue = (url: string): TextIssue | undefined => {
  if (!SUSPICIOUS.test(url)) return undefined
  const mark = url.indexOf("?")
  const path = mark === -1 ? url : url.slice(0, mark)
  for (const segment of path.split("/")) {
    if (decodeStrict(segment, false) === undefined) return { path: "path", message: MESSAGE }
  }
  if (mark === -1) return undefined
  for (const pair of url.slice(mark + 1).split("&")) {
    const equals = pair.indexOf("=")
    const rawName = equals === -1 ? pair : pair.slice(0, equals)
    const name = decodeStrict(rawName, true)
    if (name === undefined) return { path: "query", message: MESSAGE }
    if (equals !== -1 && decodeStrict(pair.slice(equals + 1), true) === undefined) {
      return { path: name === "" ? "query" : abbreviate(name), message: MESSAGE }
    }
  }
  return undefined
}

/** 400 VALIDATION_ERROR, before routing, when the path or query is not sound text; undefined when it is. */
export const invalidTextAnswer = (url: string): HttpServerResponse.HttpServerResponse | undefined => {
  const issue = requestTextIssue(url)
  if (issue === undefined) return undefined
  return errorResponse(400, {
    _tag: "BadRequest",
    code: "VALIDATION_ERROR",
    message: `${issue.path}: ${issue.message}`,
    issues: [issue]
  })
}
