import { HttpApi } from "@effect/platform"
import { Option, type Schema } from "effect"
import { Api } from "@tks/api/api"
import { openApiDocument } from "@tks/api/openapi"
import { ToolError } from "@tks/mcp/contract/tool"
import { Tools } from "@tks/mcp/contract/tools"

/**
 * What the fuzz knows about the service, read from the contract itself: the
 * /v1 endpoints with their Schemas, the tools with their input Schemas, and
 * what an answer may carry (the `_tag`s the OpenAPI document and the tools'
 * error Schema declare, and the codes a declared 503 may have).
 */
/** Any Schema of the contract; values are generated and encoded, never typed. */
export type AnySchema = Schema.Schema<any, any, any>

// `reflect` types an endpoint's Schemas as Schema<never>; the fuzz only generates and encodes with them.
const anySchema = (schema: Option.Option<unknown>): Option.Option<AnySchema> => Option.map(schema, (value) => value as AnySchema)

export interface Endpoint {
  readonly method: string
  /** With `:name` segments, e.g. /v1/lessons/:id/assignments. */
  readonly path: string
  readonly params: Option.Option<AnySchema>
  readonly query: Option.Option<AnySchema>
  readonly payload: Option.Option<AnySchema>
}

export const endpoints: ReadonlyArray<Endpoint> = (() => {
  const found: Array<Endpoint> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) =>
      found.push({
        method: endpoint.method,
        path: endpoint.path,
        params: anySchema(endpoint.pathSchema),
        query: anySchema(endpoint.urlParamsSchema),
        payload: anySchema(endpoint.payloadSchema)
      })
  })
  return found
})()

export interface Tool {
  readonly name: string
  readonly input: AnySchema
}

export const tools: ReadonlyArray<Tool> = [...Tools.requests.values()].map((rpc) => ({
  name: rpc._tag,
  input: rpc.payloadSchema as AnySchema
}))

// The document as the server serves it: the edge's own answers (405, 413, 415, 431) are declared there.
const openApi = openApiDocument("http://localhost:3000") as unknown as {
  readonly paths: Record<string, Record<string, { readonly responses?: Record<string, unknown> }>>
  readonly components: { readonly schemas: Record<string, unknown> }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

// Every literal a property called `name` may hold anywhere under `node` (following $refs).
const literalsOf = (node: unknown, name: string, into: Set<string>, seen = new Set<unknown>()): Set<string> => {
  if (!isRecord(node) || seen.has(node)) return into
  seen.add(node)
  if (Array.isArray(node)) {
    for (const item of node) literalsOf(item, name, into, seen)
    return into
  }
  const ref = node.$ref
  if (typeof ref === "string") literalsOf(openApi.components.schemas[ref.split("/").pop() ?? ""], name, into, seen)
  const properties = node.properties
  if (isRecord(properties) && isRecord(properties[name])) {
    const property = properties[name]
    const values = Array.isArray(property.enum) ? property.enum : "const" in property ? [property.const] : []
    for (const value of values) if (typeof value === "string") into.add(value)
  }
  for (const value of Object.values(node)) literalsOf(value, name, into, seen)
  return into
}

/** The `_tag`s an answer may carry: those the OpenAPI document declares, and the tools' errors'. */
export const declaredTags: ReadonlySet<string> = (() => {
  const tags = literalsOf(openApi, "_tag", new Set<string>())
  for (const member of ToolError.members) tags.add(member._tag)
  return tags
})()

/** The `_tag`s of the 503s the document declares (a database that is unavailable, a provider that is down). */
export const declared503Tags: ReadonlySet<string> = (() => {
  const tags = new Set<string>()
  for (const operations of Object.values(openApi.paths)) {
    for (const operation of Object.values(operations)) {
      const declared = operation.responses?.["503"]
      if (declared !== undefined) literalsOf(declared, "_tag", tags)
    }
  }
  return tags
})()
