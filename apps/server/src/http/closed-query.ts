import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "@tks/api/api"
import { ClosedQuery, queryFreeRoutes } from "@tks/api/closed-inputs"
import { decodeErrorMessage, summarizeDecodeIssues } from "@tks/domain/decode-issues"
import { BadRequest, BadRequestCode, InputIssue } from "@tks/domain/errors"

const NO_PARAMETERS = "is unexpected: this endpoint takes no query parameters"

/** The refusal naming every parameter given, or undefined when there is none. */
const unexpectedQuery = (params: Readonly<Record<string, unknown>>): BadRequest | undefined => {
  const names = Object.keys(params)
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
 * each parameter (a typo such as `lmit=5` there was silently ignored); a
 * declared query is decoded closed by its own schema (@tks/api/closed-inputs).
 */
export const ClosedQueryLive = Layer.sync(ClosedQuery, () => {
  const queryFree = queryFreeRoutes(Api)
  return Effect.gen(function*() {
    const { route } = yield* HttpRouter.RouteContext
    if (!queryFree.has(`${route.method} ${route.path}`)) return
    const refusal = unexpectedQuery(yield* HttpServerRequest.ParsedSearchParams)
    if (refusal !== undefined) return yield* refusal
  })
})
