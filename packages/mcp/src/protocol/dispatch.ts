import { HttpTraceContext } from "@effect/platform"
import type { Rpc, RpcGroup } from "@effect/rpc"
import { Effect, FiberRef, Option, ParseResult, Schema, Tracer } from "effect"
import { closedInputOptions, decodeErrorMessage, summarizeDecodeIssues } from "@tks/domain/decode-issues"
import { BadRequest, BadRequestCode, InputIssue } from "@tks/domain/errors"
import type { Actor } from "@tks/domain/actor"
import { CurrentAccess } from "@tks/domain/policy"
import { encodesAsItself } from "@tks/domain/wire-shape"
import { ToolCallers } from "../authorization.js"
import { ToolError } from "../contract/tool.js"
import { Tools } from "../contract/tools.js"
import { type Bounded, boundedAnswer, CHARACTERS_PER_TOKEN, ResultMaxTokens } from "./bounded.js"
import { listedTool } from "./catalog.js"
import { Citations, linksWithin, type ResourceLink } from "./citations.js"
import { ContentResources } from "./resources.js"

/**
 * A `tools/call` result (MCP `CallToolResult`). A success is the value as
 * `structuredContent` (it matches the tool's published output schema) and
 * as JSON text for clients that read only text; an error is its JSON body
 * (`{code, message}`, as over HTTP) as text, with no structured content,
 * which clients would check against the output schema. After the text, a
 * success carries `resource_link` parts for the content its answer rests on
 * (citations.ts).
 */
export interface ToolResult {
  readonly [key: string]: unknown
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string } | ResourceLink>
  readonly structuredContent?: Record<string, unknown>
  readonly isError: boolean
}

type ToolRpcs = RpcGroup.Rpcs<typeof Tools>
type ToolName = ToolRpcs["_tag"]
type AnyHandler = (payload: unknown, headers: Record<string, string>) => Effect.Effect<unknown, unknown>

/** One tool's handler, looked up by a name known only at run time (every tool's handler is in the layer's context). */
const handlerOf = (name: ToolName) =>
  Tools.accessHandler(name) as unknown as Effect.Effect<AnyHandler, never, Rpc.ToHandler<ToolRpcs>>

const encodeError = Schema.encode(ToolError)

const failure = (body: typeof ToolError.Encoded | { readonly code: string; readonly message: string }): ToolResult => ({
  content: [{ type: "text", text: JSON.stringify(body) }],
  isError: true
})

export interface Cited extends Bounded {
  readonly links: ReadonlyArray<ResourceLink>
}

/**
 * The JSON of a success's structured content, which its first text part
 * already is: kept beside the result (not in it, which the SDK would send)
 * so that writing the answer need not serialize the value a second time.
 */
const structuredJson = new WeakMap<ToolResult, string>()

/** The JSON text of `result`'s structured content, when this dispatcher made it. */
export const structuredJsonOf = (result: ToolResult): string | undefined => structuredJson.get(result)

/** A tool's success as `tools/call` answers it: the JSON text, a note when the page was cut, the links, the structured content. */
export const toolSuccess = ({ links, note, text, value }: Cited): ToolResult => {
  const result: ToolResult = {
    content: [{ type: "text", text }, ...(note === null ? [] : [{ type: "text" as const, text: note }]), ...links],
    structuredContent: value as Record<string, unknown>,
    isError: false
  }
  structuredJson.set(result, text)
  return result
}

/**
 * The caller's trace, when the call's `_meta` carries a W3C `traceparent`
 * (and `tracestate`): the tool's span joins it, so an assistant's own trace
 * shows the tool call and its SQL.
 */
const callerTrace = (meta: unknown): Option.Option<Tracer.ExternalSpan> => {
  if (typeof meta !== "object" || meta === null) return Option.none()
  const { traceparent, tracestate } = meta as { readonly traceparent?: unknown; readonly tracestate?: unknown }
  if (typeof traceparent !== "string") return Option.none()
  return HttpTraceContext.w3c({ traceparent, ...(typeof tracestate === "string" ? { tracestate } : {}) } as never)
}

/** Set for the test suite (TKS_WIRE_CHECK=1), as for HTTP's answers: a value sent as it is is also encoded, and compared. */
const wireCheckOn = process.env["TKS_WIRE_CHECK"] === "1"

/**
 * A tool's success encoder: its schema's, or, when the schema encodes a
 * value as itself (as most do), the value as it is, as HTTP answers it;
 * under the suite's wire check both, compared.
 */
const encoderOf = (rpc: Rpc.AnyWithProps): ((value: unknown) => Effect.Effect<unknown, ParseResult.ParseError>) => {
  const schema = rpc.successSchema as Schema.Schema<unknown, unknown>
  const encode = Schema.encode(schema)
  if (!encodesAsItself(schema.ast)) return encode
  if (!wireCheckOn) return Effect.succeed
  return (value) =>
    Effect.flatMap(encode(value), (encoded) =>
      JSON.stringify(encoded) === JSON.stringify(value)
        ? Effect.succeed(value)
        : Effect.dieMessage(`${rpc._tag}: the answer is not in its schema's wire shape`))
}

const isSpan = (span: Tracer.AnySpan): span is Tracer.Span => span._tag === "Span"

/** Bad input as HTTP answers it: one issue per field, `{code, message, issues}`, no Schema dump. */
const badInput = (error: ParseResult.ParseError) => {
  const issues = summarizeDecodeIssues(ParseResult.ArrayFormatter.formatErrorSync(error))
  return new BadRequest({
    code: BadRequestCode.validation,
    message: decodeErrorMessage(issues),
    issues: issues.map((issue) => new InputIssue(issue))
  })
}

/**
 * tools/list and tools/call, derived from `Tools` once: each call is
 * decoded with the tool's payload Schema (bad input is a tool error with
 * the Schema's message), authorized against the tool's declared policy as
 * the person the transport says is calling, run by the tool's handler, and
 * encoded with its success Schema. Failures come back as tool errors (with
 * the HTTP endpoints' codes and messages), never as protocol errors (the server answers a name that is no tool before it gets here).
 */
export class ToolDispatcher extends Effect.Service<ToolDispatcher>()("@tks/mcp/ToolDispatcher", {
  effect: Effect.gen(function*() {
    const callers = yield* ToolCallers
    const citations = yield* Citations
    const resources = yield* ContentResources
    const maxCharacters = (yield* ResultMaxTokens) * CHARACTERS_PER_TOKEN
    const entries = new Map<string, {
      readonly rpc: Rpc.AnyWithProps
      readonly decode: (input: unknown) => Effect.Effect<unknown, ParseResult.ParseError>
      readonly encode: (value: unknown) => Effect.Effect<unknown, ParseResult.ParseError>
      readonly handle: AnyHandler
    }>()
    for (const [name, rpc] of Tools.requests as ReadonlyMap<ToolName, Rpc.AnyWithProps>) {
      const handler = yield* handlerOf(name)
      entries.set(name, {
        rpc,
        decode: Schema.decodeUnknown(rpc.payloadSchema as Schema.Schema<unknown, unknown>, closedInputOptions),
        encode: encoderOf(rpc),
        handle: handler
      })
    }
    const listed = [...entries.values()].map(({ rpc }) => listedTool(rpc))

    const run = <E>(name: string, input: unknown, caller: Effect.Effect<Actor, E>) =>
      Effect.gen(function*() {
        const entry = entries.get(name)
        if (entry === undefined) return yield* new BadRequest({ code: "UNKNOWN_TOOL", message: `There is no tool named ${name}` })
        const payload = yield* Effect.mapError(entry.decode(input), badInput)
        const actor = yield* caller
        const access = yield* callers.authorizeTool(actor, entry.rpc)
        const answer = (asked: unknown) =>
          entry.handle(asked, {}).pipe(
            Effect.provideService(CurrentAccess, access),
            Effect.flatMap((value) => Effect.orDie(entry.encode(value)))
          )
        const bounded = yield* boundedAnswer(payload, answer, maxCharacters)
        // Links take what the bound leaves after the text: they never make an answer re-asked or cut.
        const links = yield* citations.linksFor(name, bounded.value, actor)
        const left = maxCharacters - bounded.text.length - (bounded.note?.length ?? 0)
        return { ...bounded, links: linksWithin(links, left) }
      })

    /**
     * One tools/call as `caller`: the transport's way to the person behind
     * the call, read for this call (the HTTP request's authentication, or
     * the stdio token authenticated again). `meta` is the request's `_meta`.
     */
    const call = <E>(name: string, input: unknown, caller: Effect.Effect<Actor, E>, meta?: unknown): Effect.Effect<ToolResult> =>
      Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (tracing) =>
        // With tracing off (no exporter) the span would go nowhere, yet cost a stack trace per call: the call runs without one.
        tracing
          ? Effect.flatMap(Effect.serviceOption(Tracer.ParentSpan), (parent) =>
            traced(name, answered(run(name, input, caller)), callerTrace(meta), Option.filter(parent, isSpan)))
          : answered(run(name, input, caller)))

    /** The call's answer: its success, or its error as the tool error body (a defect logged, and answered as INTERNAL_ERROR). */
    const answered = (effect: Effect.Effect<Cited, unknown>): Effect.Effect<ToolResult> =>
      effect.pipe(
        Effect.map(toolSuccess),
        Effect.catchAll((error) =>
          Schema.is(ToolError)(error)
            ? Effect.map(Effect.orDie(encodeError(error)), failure)
            : Effect.die(error)
        ),
        Effect.catchAllDefect((defect) =>
          Effect.logError("tool call failed", defect).pipe(
            Effect.as(failure({ code: "INTERNAL_ERROR", message: "The tool failed unexpectedly; the error was logged" }))
          )
        )
      )

    /** The call's span: under the transport's span, or, when the caller sent its trace, in that trace, linked to the transport's. */
    const traced = (
      name: string,
      effect: Effect.Effect<ToolResult>,
      joined: Option.Option<Tracer.ExternalSpan>,
      transportSpan: Option.Option<Tracer.Span>
    ): Effect.Effect<ToolResult> =>
      Effect.withSpan(effect, `tools/call ${name}`, {
        kind: "server",
        attributes: { "mcp.method.name": "tools/call", "gen_ai.tool.name": name, "gen_ai.operation.name": "execute_tool" },
        ...(Option.isSome(joined)
          ? {
            parent: joined.value,
            links: Option.isSome(transportSpan) ? [{ _tag: "SpanLink" as const, span: transportSpan.value, attributes: {} }] : []
          }
          : {})
      })

    // The same MCP server answers resources/* (the content its answers cite), as the same callers.
    /** Whether a tool of this name exists (calling one that does not is a protocol error, not a tool error). */
    const knows = (name: string) => entries.has(name)

    return { listed, knows, call, resources } as const
  }),
  dependencies: [ToolCallers.Default, Citations.Default, ContentResources.Default]
}) {}
