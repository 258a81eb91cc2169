import { HttpLayerRouter, HttpServerRequest } from "@effect/platform"
import { type Rpc, RpcSerialization, RpcServer } from "@effect/rpc"
import { Effect, Either, Layer, ParseResult, Schema } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { ToolCallers } from "@tks/mcp/authorization"
import { ToolAuthorization } from "@tks/mcp/contract/tool"
import { Tools } from "@tks/mcp/contract/tools"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"
import { parseBearer } from "@tks/domain/bearer"
import { BadRequestCode } from "@tks/domain/errors"
import { abbreviate, closedInputOptions, summarizeDecodeIssues } from "@tks/domain/decode-issues"
import { errorResponse } from "../http/error-response.js"
import { refusal } from "./refusal.js"
import { asTransport } from "./transport-origin.js"

export const RPC_PATH = "/rpc"

/**
 * One line of an /rpc body: a request as `RpcClient` over HTTP sends it.
 * The id is decimal digits (the server reads it as a BigInt).
 */
const RequestLine = Schema.TaggedStruct("Request", {
  id: Schema.String.pipe(Schema.pattern(/^\d{1,19}$/)),
  tag: Schema.String,
  payload: Schema.Unknown,
  headers: Schema.Array(Schema.Tuple(Schema.String, Schema.String)),
  traceId: Schema.optional(Schema.String),
  spanId: Schema.optional(Schema.String),
  sampled: Schema.optional(Schema.Boolean)
})

const SHAPE = "{\"_tag\": \"Request\", \"id\": \"<digits>\", \"tag\": \"<tool>\", \"payload\": {...}, \"headers\": []}"

interface InputProblem {
  readonly code: string
  readonly message: string
  readonly issues?: ReadonlyArray<{ readonly path: string; readonly message: string }>
}

// A formatter message that would print a whole schema ("Expected { readonly … }") says less than this.
const plainMessage = (message: string) => (/^Expected [{[(]|\n/.test(message) ? "is not valid" : message)

const payloadProblem = (rpc: Rpc.AnyWithProps, payload: unknown, line: number): InputProblem | undefined => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return { code: BadRequestCode.validation, message: `line ${line}: payload must be an object`, issues: [{ path: "payload", message: "must be an object" }] }
  }
  const decoded = Schema.decodeUnknownEither(rpc.payloadSchema as Schema.Schema<unknown, unknown>, closedInputOptions)(payload)
  if (Either.isRight(decoded)) return undefined
  const issues = summarizeDecodeIssues(
    ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((issue) => ({
      path: ["payload", ...issue.path],
      message: plainMessage(issue.message)
    }))
  )
  const first = issues[0]!
  return { code: BadRequestCode.validation, message: `line ${line}: ${first.path}: ${first.message}`, issues }
}

/**
 * The first problem of an /rpc body, or undefined when every line is a
 * request for a known tool whose payload decodes. Checked here, before the
 * RPC server sees the body: it answers malformed input with defects that
 * carry schema dumps and JavaScript error text (a body of `null` was
 * "Cannot read properties of null").
 */
const rpcBodyProblem = (body: string): InputProblem | undefined => {
  const lines = body.split("\n").filter((text) => text.trim() !== "")
  if (lines.length === 0) return { code: BadRequestCode.validation, message: `The body must hold one request per line: ${SHAPE}` }
  for (const [index, text] of lines.entries()) {
    const line = index + 1
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return { code: BadRequestCode.malformedJson, message: `line ${line} is not valid JSON` }
    }
    const request = Schema.decodeUnknownEither(RequestLine)(value)
    if (Either.isLeft(request)) {
      return { code: BadRequestCode.validation, message: `line ${line} must be a request: ${SHAPE}` }
    }
    const rpc = Tools.requests.get(request.right.tag) as Rpc.AnyWithProps | undefined
    if (rpc === undefined) {
      return {
        code: BadRequestCode.validation,
        message: `line ${line}: tag: no tool is named ${JSON.stringify(abbreviate(request.right.tag))}`,
        issues: [{ path: "tag", message: "is not a tool" }]
      }
    }
    const problem = payloadProblem(rpc, request.right.payload, line)
    if (problem !== undefined) return problem
  }
  return undefined
}

/**
 * Each call of an /rpc request: its caller resolved from the headers, as the
 * request's was, and the tool's policy checked. The call is not counted
 * against the rate limit again: the request already was, once, at the route
 * (the shared ToolAuthorization counts each call, which made one /rpc
 * request cost two).
 */
const RpcCallAuthorization = Layer.effect(
  ToolAuthorization,
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    const callers = yield* ToolCallers
    return ToolAuthorization.of(({ headers, rpc }) =>
      withSqlErrorAnswers(authenticator.identify(parseBearer(headers.authorization) ?? "")).pipe(
        Effect.flatMap((actor) => callers.authorizeTool(actor, rpc))
      )
    )
  })
)

/**
 * POST /rpc: the same tools as /mcp, for Effect clients (`RpcClient.make(Tools)`
 * over `RpcClient.layerProtocolHttp` with NDJSON serialization). Refused at
 * the HTTP level as /mcp is, before the RPC server runs: the bearer token
 * first, before the body is read (401 with `WWW-Authenticate`, 429 with
 * Retry-After, 503), then a body that is not requests for known tools with
 * valid payloads (400 with the JSON error body). A client sees these as an
 * HTTP status, so it should use `HttpClient.filterStatusOk` (an
 * RpcClientError). Each call then passes ToolAuthorization (the tool's
 * policy; its errors are typed exits). The route's origin says "rpc"; the
 * calls themselves run in the RPC server's own fibers, which the request's
 * origin does not reach (every tool only reads: none records an act).
 */
export const RpcRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const callers = yield* ToolCallers
    const rpcApp = yield* RpcServer.toHttpApp(Tools)
    yield* router.add(
      "POST",
      RPC_PATH,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const caller = yield* Effect.either(callers.authenticate(request.headers))
        if (Either.isLeft(caller)) return yield* refusal(caller.left)
        // Read once: the server's own read of the body gets this same text.
        const body = yield* Effect.either(request.text)
        if (Either.isLeft(body)) {
          return errorResponse(400, { _tag: "BadRequest", code: "BAD_REQUEST", message: "The request body could not be read" })
        }
        const problem = rpcBodyProblem(body.right)
        if (problem !== undefined) return errorResponse(400, { _tag: "BadRequest", ...problem })
        return yield* rpcApp
      }).pipe(asTransport("rpc"))
    )
  })
).pipe(Layer.provide([RpcSerialization.layerNdjson, RpcCallAuthorization]))
