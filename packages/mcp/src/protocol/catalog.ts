import type { Rpc } from "@effect/rpc"
import { Context, JSONSchema, Option, type Schema } from "effect"
import { ToolDescription, ToolTitle } from "../contract/tool.js"

/** A tool as `tools/list` publishes it (MCP 2025-06-18 `Tool`). */
export interface ListedTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JSONSchema.JsonSchema7Root
  readonly outputSchema: JSONSchema.JsonSchema7Root
  readonly annotations: {
    readonly title: string
    readonly readOnlyHint: true
    readonly destructiveHint: false
    readonly idempotentHint: true
    readonly openWorldHint: false
  }
}

/**
 * A Schema's JSON Schema with the object itself at the top (MCP takes only
 * object schemas for a tool's input and output): a named schema's top-level
 * `$ref` is inlined; the schemas it refers to stay under `$defs`.
 */
const objectSchema = (rpc: Rpc.AnyWithProps, what: string, schema: Schema.Schema.All): JSONSchema.JsonSchema7Root => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const json = JSONSchema.fromAST(schema.ast, { definitions, topLevelReferenceStrategy: "skip" })
  if (!("type" in json) || json.type !== "object") throw new Error(`Tool ${rpc._tag}: its ${what} Schema must be an object`)
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    ...(Object.keys(definitions).length > 0 ? { $defs: definitions } : {}),
    ...json
  }
}

const annotation = (rpc: Rpc.AnyWithProps, tag: Context.Tag<any, string>) =>
  Option.getOrElse(Context.getOption(rpc.annotations, tag), () => rpc._tag)

/**
 * A tool's entry of `tools/list`, derived from its Rpc: the input's JSON
 * Schema is the payload Schema's (`JSONSchema.make`: the SDK's `registerTool`
 * takes zod only), the output's the
 * success Schema's (what `structuredContent` holds, the HTTP twin's body).
 * Every tool only reads.
 */
export const listedTool = (rpc: Rpc.AnyWithProps): ListedTool => {
  const schema = objectSchema(rpc, "input", rpc.payloadSchema)
  const outputSchema = objectSchema(rpc, "output", rpc.successSchema)
  const title = annotation(rpc, ToolTitle)
  return {
    name: rpc._tag,
    title,
    description: annotation(rpc, ToolDescription),
    inputSchema: schema,
    outputSchema,
    annotations: { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
  }
}
