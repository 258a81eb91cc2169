import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { documentTheWire } from "@tks/api/openapi"
import { BadRequest } from "@tks/domain/errors"
import { componentOf, document, operations, schemas } from "./openapi-support.js"

const errorResponses = operations.flatMap(({ label, operation }) =>
  Object.entries(operation.responses as Record<string, any>)
    .filter(([status]) => Number(status) >= 400)
    .map(([status, response]) => ({ label: `${label} ${status}`, status, response }))
)

describe("the OpenAPI document documents error bodies as they are sent", () => {
  it("every 400 is the BadRequest body error-bodies.ts sends, not the framework's decode error", () => {
    for (const { label, operation } of operations) {
      expect(operation.responses["400"].content["application/json"].schema, label).toEqual({
        $ref: "#/components/schemas/BadRequest"
      })
    }
    expect(JSON.stringify(document)).not.toContain("HttpApiDecodeError")
    expect(Object.keys(schemas)).not.toEqual(expect.arrayContaining(["Issue"]))
    expect(Object.keys(schemas)).not.toEqual(expect.arrayContaining(["PropertyKey"]))
  })

  it("BadRequest is {_tag, code, message, issues?: [{path, message}], requestId?} and names VALIDATION_ERROR", () => {
    const badRequest = schemas.BadRequest
    expect([...badRequest.required].sort()).toEqual(["_tag", "code", "message"])
    expect(Object.keys(badRequest.properties).sort()).toEqual(["_tag", "code", "issues", "message", "requestId"])
    expect(badRequest.properties._tag.enum).toEqual(["BadRequest"])
    expect(badRequest.properties.code.examples).toContain("VALIDATION_ERROR")
    expect(badRequest.properties.requestId.type).toBe("string")
    const issue = schemas[componentOf(badRequest.properties.issues.items)!]
    expect(issue.required.sort()).toEqual(["message", "path"])
    expect(issue.properties).toEqual({ path: { type: "string" }, message: { type: "string" } })
  })

  it("every error body's code is a closed enum of its stable codes, never an open string", () => {
    const errors = Object.entries(schemas).filter(([, schema]) => schema.properties?._tag !== undefined && schema.properties?.code !== undefined)
    expect(errors.length).toBeGreaterThanOrEqual(13)
    for (const [name, schema] of errors) {
      expect(schema.properties.code.type, name).toBe("string")
      expect(schema.properties.code.enum?.length, name).toBeGreaterThan(0)
    }
    expect(schemas.BadRequest.properties.code.enum).toEqual(expect.arrayContaining(["BAD_REQUEST", "VALIDATION_ERROR", "INVALID_CURSOR", "OBLIGATION_STATE"]))
    expect(schemas.TooManyRequests.properties.code.enum).toEqual(["RATE_LIMITED", "REVIEW_SUBMISSION_LIMIT_REACHED", "NARRATION_QUOTA_EXCEEDED"])
    expect(schemas.ServiceUnavailable.properties.code.enum).toEqual(["SERVICE_UNAVAILABLE", "DATABASE_TIMEOUT", "POP_QUIZ_GENERATION_FAILED"])
  })

  it("a VALIDATION_ERROR body as error-bodies.ts builds it decodes with the documented schema", () => {
    const body = {
      _tag: "BadRequest",
      code: "VALIDATION_ERROR",
      message: "limit: limit must be an integer from 1 to 100",
      issues: [{ path: "limit", message: "limit must be an integer from 1 to 100" }]
    }
    expect(Schema.decodeUnknownSync(BadRequest)(body, { onExcessProperty: "error" })).toMatchObject(body)
  })

  it("every error status has a JSON body {_tag, code, message} and may carry requestId; only narration's burst 429 has no code", () => {
    expect(errorResponses.length).toBeGreaterThan(0)
    for (const { label, response } of errorResponses) {
      const documented = response.content["application/json"].schema
      const names = (documented.anyOf ?? [documented]).map(componentOf)
      for (const name of names) {
        expect(name, label).toBeDefined()
        const schema = schemas[name!]
        const required = name === "NarrationTooQuick" ? ["_tag", "message"] : ["_tag", "code", "message"]
        expect(schema.required, `${label} ${name}`).toEqual(expect.arrayContaining(required))
        expect(schema.properties.requestId, `${label} ${name}`).toMatchObject({ type: "string" })
        expect(schema.required, `${label} ${name}`).not.toContain("requestId")
      }
    }
    expect(schemas.NarrationTooQuick.properties).not.toHaveProperty("code")
  })

  it("every endpoint documents 400, 401, 500 and 503; a defect's 500 is the INTERNAL_ERROR body", () => {
    for (const { label, operation } of operations) {
      expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(["400", "401", "500", "503"]))
    }
    expect(schemas.InternalServerError.properties.code.enum).toEqual(["INTERNAL_ERROR"])
    expect(schemas.InternalServerError.properties._tag.enum).toEqual(["InternalServerError"])
  })

  it("a 429 documents its Retry-After header; a 400 body an endpoint declares stays beside BadRequest", () => {
    class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
      "TooManyRequests",
      { code: Schema.String, message: Schema.String },
      HttpApiSchema.annotations({ status: 429 })
    ) {}
    class QuizClosed extends Schema.TaggedError<QuizClosed>()(
      "QuizClosed",
      { code: Schema.String, message: Schema.String },
      HttpApiSchema.annotations({ status: 400 })
    ) {}
    const api = HttpApi.make("probe")
      .add(
        HttpApiGroup.make("things")
          .add(HttpApiEndpoint.get("list", "/things").setUrlParams(Schema.Struct({ q: Schema.String })).addSuccess(Schema.String))
          .add(HttpApiEndpoint.get("quiz", "/quiz").addSuccess(Schema.String).addError(QuizClosed))
          .addError(TooManyRequests)
      )
      .addError(BadRequest)
    const probe: any = documentTheWire(OpenApi.fromApi(api), "http://localhost:3000")
    const list = probe.paths["/things"].get.responses
    expect(list["429"].headers["Retry-After"]).toMatchObject({ required: true, schema: { type: "integer" } })
    expect(probe.components.schemas.TooManyRequests.properties.requestId).toBeDefined()
    expect(list["400"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/BadRequest" })
    expect(probe.paths["/quiz"].get.responses["400"].content["application/json"].schema).toEqual({
      anyOf: [{ $ref: "#/components/schemas/BadRequest" }, { $ref: "#/components/schemas/QuizClosed" }]
    })
    expect(JSON.stringify(probe)).not.toContain("HttpApiDecodeError")
  })
})
