import type { Rpc, RpcGroup } from "@effect/rpc"
import type { Headers } from "@effect/platform"
import { Effect, ParseResult, Schema } from "effect"
import { BadRequest, BadRequestCode } from "@tks/domain/errors"
import { CurrentAccess } from "@tks/domain/policy"
import { ToolAuthorization, ToolError } from "../contract/tool.js"
import { Tools } from "../contract/tools.js"
import { listedTool } from "./catalog.js"

/** A `tools/call` result (MCP `CallToolResult`): JSON text for text-only clients, the same value as `structuredContent`. */
export interface ToolResult {
  readonly [key: string]: unknown
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
  readonly structuredContent: Record<string, unknown>
  readonly isError: boolean
}

type ToolRpcs = RpcGroup.Rpcs<typeof Tools>
type ToolName = ToolRpcs["_tag"]
type AnyHandler = (payload: unknown, headers: Headers.Headers) => Effect.Effect<unknown, unknown>

/** One tool's handler, looked up by a name known only at run time (every tool's handler is in the layer's context). */
const handlerOf = (name: ToolName) =>
  Tools.accessHandler(name) as unknown as Effect.Effect<AnyHandler, never, Rpc.ToHandler<ToolRpcs>>

const encodeError = Schema.encode(ToolError)

const failure = (body: Record<string, unknown> & { readonly code: string; readonly message: string }): ToolResult => ({
  content: [{ type: "text", text: `${body.code}: ${body.message}` }],
  structuredContent: body,
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
 * the Schema's message), authorized by ToolAuthorization from the call's
 * headers, run by the tool's handler, and encoded with its success Schema.
 * Failures come back as tool errors, never as protocol errors.
 */
export class ToolDispatcher extends Effect.Service<ToolDispatcher>()("@tks/mcp/ToolDispatcher", {
  effect: Effect.gen(function*() {
    const authorization = yield* ToolAuthorization
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

    const run = (name: string, input: unknown, headers: Headers.Headers) =>
      Effect.gen(function*() {
        const entry = entries.get(name)
        if (entry === undefined) return yield* new BadRequest({ code: "UNKNOWN_TOOL", message: `There is no tool named ${name}` })
        const payload = yield* Effect.mapError(entry.decode(input), badInput)
        const access = yield* authorization({ clientId: 0, rpc: entry.rpc, payload, headers })
        const value = yield* entry.handle(payload, headers).pipe(Effect.provideService(CurrentAccess, access))
        return yield* Effect.orDie(entry.encode(value))
      })

    const call = (name: string, input: unknown, headers: Headers.Headers): Effect.Effect<ToolResult> =>
      run(name, input, headers).pipe(
        Effect.map(success),
        Effect.catchAll((error) =>
          Schema.is(ToolError)(error)
            ? Effect.map(Effect.orDie(encodeError(error)), (body) => failure(body as never))
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
  })
}) {}
