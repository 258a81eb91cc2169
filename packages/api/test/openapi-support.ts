import type { OpenApi } from "@effect/platform"
import { openApiDocument } from "@tks/api/openapi"

/** The document as the server serves it, for the contract tests. */
export const document = openApiDocument("https://tks.example.test")

export type Json = any

export const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApi.OpenAPISpecOperation>).map(([method, operation]) => ({
    path,
    method,
    operation: operation as Json,
    label: `${method.toUpperCase()} ${path}`
  }))
)

export const schemas: Record<string, Json> = document.components.schemas

/** Every (component, property name, property schema) of the component schemas. */
export const componentProperties = Object.entries(schemas).flatMap(([component, schema]) =>
  Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, property]) => ({ component, name, property }))
)

/** `{...}` or `anyOf: [{...}, {type: "null"}]`: the non-null alternatives. */
export const nonNull = (schema: Json): Array<Json> =>
  Array.isArray(schema.anyOf) ? schema.anyOf.filter((s: Json) => s.type !== "null") : [schema]

export const componentOf = (schema: Json): string | undefined =>
  typeof schema?.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined
