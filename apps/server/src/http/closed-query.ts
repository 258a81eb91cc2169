import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "@tks/api/api"
import { ClosedQuery, queryFreeRoutes } from "@tks/api/closed-inputs"
import { decodeErrorMessage, summarizeDecodeIssues } from "@tks/domain/decode-issues"
import { BadRequest, BadRequestCode, InputIssue } from "@tks/domain/errors"

const NO_PARAMETERS = "is unexpected: this endpoint takes no query parameters"

/**
 * The paging parameters every list takes. A read that declares no query
 * (a list that is always one page, such as /v1/me/obligations, or a single
 * record) takes them too and they change nothing: a caller paging every
 * list the same way is not refused where there is only one page.
 */
const PAGING = new Set(["cursor", "limit"])

/** The refusal naming every parameter given, or undefined when there is none. */
const unexpectedQuery = (params: Readonly<Record<string, unknown>>, method: string): BadRequest | undefined => {
  const names = Object.keys(params).filter((name) => method !== "GET" || !PAGING.has(name))
  if (names.length === 0) return undefined
  const issues = summarizeDecodeIssues(names.map((name) => ({ path: [name], message: NO_PARAMETERS })))
  return new BadRequest({
    code: BadRequestCode.validation,
    message: decodeErrorMessage(issues),
    issues: issues.map((issue) => new InputIssue(issue))
  })
}

/**
 * A query on an endpoint that declares none is 400 VALIDATION_ERROR naming
 * each parameter (a typo such as `lmit=5` there was silently ignored), but
 * for `cursor` and `limit` on a read (see PAGING); a declared query is
 * decoded closed by its own schema (@tks/api/closed-inputs).
 */
export const ClosedQueryLive = Layer.sync(ClosedQuery, () => {
  const queryFree = queryFreeRoutes(Api)
  return Effect.gen(function*() {
    const { route } = yield* HttpRouter.RouteContext
    if (!queryFree.has(`${route.method} ${route.path}`)) return
    const refusal = unexpectedQuery(yield* HttpServerRequest.ParsedSearchParams, route.method)
    if (refusal !== undefined) return yield* refusal
  })
})
