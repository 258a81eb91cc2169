import { describe, expect, it } from "@effect/vitest"
import { openApiDocument } from "@tks/api/openapi"
import { genericErrorBody } from "../src/http/error-response.js"

/**
 * The edge answers some errors before a request reaches its endpoint (405,
 * 408, 413, 415, 431, and a Retry-After on every 503): the OpenAPI document
 * describes each, so no `_tag` a caller can receive is undeclared.
 */
const document: any = openApiDocument("https://tks.example.test")
const schemas: Record<string, any> = document.components.schemas
const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation }))
)
const refOf = (response: any): string | undefined =>
  response?.content?.["application/json"]?.schema?.$ref?.replace("#/components/schemas/", "")

/** Every status error-bodies.ts fills a body for, and the 415 of media-type.ts. */
const edgeBodies = [400, 401, 403, 404, 405, 408, 413, 431, 500, 503].map(genericErrorBody).concat([
  { _tag: "UnsupportedMediaType", code: "UNSUPPORTED_MEDIA_TYPE", message: "" }
])

describe("the OpenAPI document declares what the edge answers", () => {
  it("every _tag the edge can put in a body is a component with that _tag and code", () => {
    for (const body of edgeBodies) {
      const schema = schemas[body._tag]
      expect(schema, body._tag).toBeDefined()
      expect(schema.properties._tag.enum, body._tag).toEqual([body._tag])
      const code = schema.properties.code
      if (code.enum !== undefined) expect(code.enum, body._tag).toContain(body.code)
    }
  })

  it("every operation documents 405 MethodNotAllowed (with Allow), 408 and 431; every 503 documents Retry-After", () => {
    for (const { label, operation } of operations) {
      expect(refOf(operation.responses["405"]), label).toBe("MethodNotAllowed")
      expect(operation.responses["405"].headers.Allow, label).toMatchObject({ required: true })
      expect(refOf(operation.responses["408"]), label).toBe("RequestTimeout")
      expect(refOf(operation.responses["431"]), label).toBe("RequestHeaderFieldsTooLarge")
      expect(operation.responses["503"].headers["Retry-After"], label).toMatchObject({ required: true })
    }
  })

  it("exactly the operations with a request body document 415 UnsupportedMediaType and 413 PayloadTooLarge", () => {
    const withBody = operations.filter(({ operation }) => operation.requestBody !== undefined)
    expect(withBody.length).toBeGreaterThanOrEqual(19)
    for (const { label, operation } of operations) {
      const expected = operation.requestBody === undefined ? undefined : "UnsupportedMediaType"
      expect(refOf(operation.responses["415"]), label).toBe(expected)
      expect(refOf(operation.responses["413"]), label).toBe(operation.requestBody === undefined ? undefined : "PayloadTooLarge")
    }
    expect(schemas.UnsupportedMediaType.properties.code.enum).toEqual(["UNSUPPORTED_MEDIA_TYPE"])
  })
})
