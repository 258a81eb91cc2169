import { Rpc, RpcMiddleware } from "@effect/rpc"
import { Context, Schema } from "effect"
import { BadRequest, Forbidden, NotFound, ServiceUnavailable, Unauthorized } from "@tks/domain/errors"
import { CurrentAccess, type Policy } from "@tks/domain/policy"
import { TooManyRequests } from "@tks/domain/rate-limit"

/** What `tools/list` tells an AI assistant the tool is for: when to call it, what it returns, how it pages. */
export class ToolDescription extends Context.Tag("@tks/mcp/ToolDescription")<ToolDescription, string>() {}

/** A short human title for the tool (MCP `title`). */
export class ToolTitle extends Context.Tag("@tks/mcp/ToolTitle")<ToolTitle, string>() {}

/** Who may call the tool: the same entry of the policy table (@tks/domain/policies) as its HTTP twin. */
export class ToolPolicy extends Context.Tag("@tks/mcp/ToolPolicy")<ToolPolicy, Policy>() {}

/**
 * Every way a tool call can fail, the same errors (and codes) as the HTTP
 * endpoints: bad input, no caller, forbidden, not found, rate limited, the
 * database away.
 */
export const ToolError = Schema.Union(BadRequest, Unauthorized, Forbidden, NotFound, TooManyRequests, ServiceUnavailable)
export type ToolError = typeof ToolError.Type

/**
 * Resolves the caller of every tool call from its `authorization` header, as
 * they are now, and checks the tool's declared policy: handlers read the
 * resulting `Access` from `CurrentAccess`, exactly as HTTP handlers do.
 */
export class ToolAuthorization extends RpcMiddleware.Tag<ToolAuthorization>()("@tks/mcp/ToolAuthorization", {
  provides: CurrentAccess,
  failure: ToolError
}) {}

/** One read-only tool: its name, a title and a description for an AI assistant, its input and result Schemas, and its policy. */
export const tool = <const Name extends string, Payload extends Schema.Schema.Any, Success extends Schema.Schema.Any>(
  name: Name,
  definition: {
    readonly title: string
    readonly description: string
    readonly payload: Payload
    readonly success: Success
    readonly policy: Policy
  }
) =>
  Rpc.make(name, { payload: definition.payload, success: definition.success, error: ToolError })
    .annotate(ToolTitle, definition.title)
    .annotate(ToolDescription, definition.description)
    .annotate(ToolPolicy, definition.policy)

/**
 * An id the tool takes, described for the assistant: published as a plain
 * string (ids are opaque, never pattern checked), decoded to its brand so the
 * handler passes it straight to the service.
 */
export const IdInput = <A extends string>(id: Schema.Schema<A, string>, description: string) =>
  id.pipe(Schema.minLength(1)).annotations({ description })

/**
 * A tool's input from an HTTP listing's parameters: the same fields in their
 * decoded (JSON) form, so `limit` is a number, not digits in a string.
 */
export const inputOf = <A, I, R>(params: Schema.Schema<A, I, R>) => Schema.typeSchema(params)

/** The input of a tool that takes none: an empty object (published as one; `{}` alone would be "object or array"). */
export const NoInput = Schema.Struct({}).annotations({
  jsonSchema: { type: "object", properties: {}, additionalProperties: false }
})
