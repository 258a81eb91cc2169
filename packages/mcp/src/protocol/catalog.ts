import type { Rpc } from "@effect/rpc"
import { Context, JSONSchema, Option } from "effect"
import { ToolDescription, ToolTitle } from "../contract/tool.js"

/** A tool as `tools/list` publishes it (MCP 2025-06-18 `Tool`). */
export interface ListedTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JSONSchema.JsonSchema7Root
  readonly annotations: {
    readonly title: string
    readonly readOnlyHint: true
    readonly destructiveHint: false
    readonly idempotentHint: true
    readonly openWorldHint: false
  }
}

const annotation = (rpc: Rpc.AnyWithProps, tag: Context.Tag<any, string>) =>
  Option.getOrElse(Context.getOption(rpc.annotations, tag), () => rpc._tag)

/**
 * A tool's entry of `tools/list`, derived from its Rpc: the input's JSON
 * Schema is the payload Schema's (DESIGN pitfall 9). Every tool only reads.
 */
export const listedTool = (rpc: Rpc.AnyWithProps): ListedTool => {
  const schema = JSONSchema.make(rpc.payloadSchema)
  if (!("type" in schema) || schema.type !== "object") throw new Error(`Tool ${rpc._tag}: its input Schema must be an object`)
  const title = annotation(rpc, ToolTitle)
  return {
    name: rpc._tag,
    title,
    description: annotation(rpc, ToolDescription),
    inputSchema: schema,
    annotations: { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
  }
}
