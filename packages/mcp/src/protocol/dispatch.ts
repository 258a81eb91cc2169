import type { Rpc, RpcGroup } from "@effect/rpc"
import { Effect, ParseResult, Schema } from "effect"
import { BadRequest, BadRequestCode } from "@tks/domain/errors"
import type { Actor } from "@tks/domain/actor"
import { CurrentAccess } from "@tks/domain/policy"
import { ToolCallers } from "../authorization.js"
import { ToolError } from "../contract/tool.js"
import { Tools } from "../contract/tools.js"
import { listedTool } from "./catalog.js"

/**
 * A `tools/call` result (MCP `CallToolResult`). A success is the value as
 * `structuredContent` (it matches the tool's published output schema) and
 * as JSON text for clients that read only text; an error is its JSON body
 * (`{code, message}`, as over HTTP) as text, with no structured content,
 * which clients would check against the output schema.
 */
export interface ToolResult {
  readonly [key: string]: unknown
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
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

const success = (value: unknown): ToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
  isError: false
})

const badInput = (error: ParseResult.ParseError) =>
  new BadRequest({ code: BadRequestCode.validation, message: ParseResult.TreeFormatter.formatErrorSync(error) })

/**
 * tools/list and tools/call, derived from `Tools` once: each call is
 * decoded with the tool's payload Schema (bad input is a tool error with
 * the Schema's message), authorized against the tool's declared policy as
 * the person the transport says is calling, run by the tool's handler, and
 * encoded with its success Schema. Failures come back as tool errors (with
 * the HTTP endpoints' codes and messages), never as protocol errors.
 */
export class ToolDispatcher extends Effect.Service<ToolDispatcher>()("@tks/mcp/ToolDispatcher", {
  effect: Effect.gen(function*() {
    const callers = yield* ToolCallers
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
        decode: Schema.decodeUnknown(rpc.payloadSchema as Schema.Schema<unknown, unknown>, { onExcessProperty: "error" }),
        encode: Schema.encode(rpc.successSchema as Schema.Schema<unknown, unknown>),
        handle: handler
      })
    }
    const listed = [...entries.values()].map(({ rpc }) => listedTool(rpc))

    const run = <E>(name: string, input: unknown, caller: Effect.Effect<Actor, E>) =>
      Effect.gen(function*() {
        const entry = entries.get(name)
        if (entry === undefined) return yield* new BadRequest({ code: "UNKNOWN_TOOL", message: `There is no tool named ${name}` })
        const payload = yield* Effect.mapError(entry.decode(input), badInput)
        const access = yield* callers.authorizeTool(yield* caller, entry.rpc)
        const value = yield* entry.handle(payload, {}).pipe(Effect.provideService(CurrentAccess, access))
        return yield* Effect.orDie(entry.encode(value))
      })

    /**
     * One tools/call as `caller`: the transport's way to the person behind
     * the call, read for this call (the HTTP request's authentication, or
     * the stdio token authenticated again).
     */
    const call = <E>(name: string, input: unknown, caller: Effect.Effect<Actor, E>): Effect.Effect<ToolResult> =>
      run(name, input, caller).pipe(
        Effect.map(success),
        Effect.catchAll((error) =>
          Schema.is(ToolError)(error)
            ? Effect.map(Effect.orDie(encodeError(error)), failure)
            : Effect.die(error)
        ),
        Effect.catchAllDefect((defect) =>
          Effect.logError("tool call failed", defect).pipe(
            Effect.as(failure({ code: "INTERNAL_ERROR", message: "The tool failed unexpectedly; the error was logged" }))
          )
        ),
        Effect.withSpan(`tools/call ${name}`, {
          kind: "server",
          attributes: { "mcp.method.name": "tools/call", "gen_ai.tool.name": name, "gen_ai.operation.name": "execute_tool" }
        })
      )

    return { listed, call } as const
  }),
  dependencies: [ToolCallers.Default]
}) {}
