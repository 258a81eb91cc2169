import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Api } from "@tks/api/api"
import { keyedWriteRoutes, keyWrites } from "@tks/api/idempotent-writes"
import { operations, schemas } from "./openapi-support.js"

const isWrite = (method: string) => ["post", "put", "patch"].includes(method)
/** The writes whose answer is never kept (AnswerNotKept): narration's audio, and the directory token shown only once. */
const NOT_KEPT: ReadonlyArray<string> = ["POST /v1/narration/synthesize", "POST /v1/directory-sync/token"]

const keyParameterOf = (operation: any) =>
  (operation.parameters ?? []).find((parameter: any) => parameter.in === "header" && parameter.name === "Idempotency-Key")

describe("Idempotency-Key in the contract", () => {
  it("every write operation declares the optional header, 409 IDEMPOTENCY_KEY_IN_USE and 422 IDEMPOTENCY_KEY_REUSED; narration, the directory token and reads none", () => {
    const writes = operations.filter(({ label, method }) => isWrite(method) && !NOT_KEPT.includes(label))
    expect(writes.length).toBeGreaterThanOrEqual(18)
    for (const { label, operation } of writes) {
      expect(keyParameterOf(operation), label).toMatchObject({
        required: false,
        schema: { type: "string", minLength: 1, maxLength: 255 },
        description: expect.stringContaining("Idempotent-Replayed")
      })
      expect(operation.responses["409"].content["application/json"].schema, label).toEqual({ $ref: "#/components/schemas/IdempotencyKeyInUse" })
      expect(operation.responses["422"].content["application/json"].schema, label).toEqual({ $ref: "#/components/schemas/IdempotencyKeyReused" })
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        if (status.startsWith("2")) expect(response.headers?.["Idempotent-Replayed"], `${label} ${status}`).toBeDefined()
      }
      // Earlier transforms of the operation are kept (the policy's sentence, a route limit).
      expect(operation["x-authorization"], label).toBeDefined()
    }
    for (const { label, method, operation } of operations.filter(({ label, method }) => !isWrite(method) || NOT_KEPT.includes(label))) {
      expect(keyParameterOf(operation), `${method} ${label}`).toBeUndefined()
      expect(operation.responses["422"], label).toBeUndefined()
    }
    expect(schemas.IdempotencyKeyInUse.properties.code.enum).toEqual(["IDEMPOTENCY_KEY_IN_USE"])
    expect(schemas.IdempotencyKeyReused.properties.code.enum).toEqual(["IDEMPOTENCY_KEY_REUSED"])
    expect(schemas.IdempotencyKeyReused.properties.requestId).toBeDefined()
  })

  it("the server's keyed routes are the contract's writes but narration and the directory token", () => {
    const routes = keyedWriteRoutes(Api).map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, "{$1}")}`).sort()
    const writes = operations.filter(({ label, method }) => isWrite(method) && !NOT_KEPT.includes(label)).map(({ label }) => label).sort()
    expect(routes).toEqual(writes)
  })

  it("a write added later takes the key without saying so", () => {
    const api = keyWrites(
      HttpApi.make("later").add(
        HttpApiGroup.make("later")
          .add(HttpApiEndpoint.patch("change", "/things/:id").setPath(Schema.Struct({ id: Schema.String })).addSuccess(Schema.Struct({ ok: Schema.Boolean })))
          .add(HttpApiEndpoint.get("read", "/things/:id").setPath(Schema.Struct({ id: Schema.String })).addSuccess(Schema.Struct({ ok: Schema.Boolean })))
      )
    )
    const spec = OpenApi.fromApi(api) as any
    expect(keyParameterOf(spec.paths["/things/{id}"].patch)).toBeDefined()
    expect(spec.paths["/things/{id}"].patch.parameters.map((parameter: any) => parameter.name)).toEqual(["id", "Idempotency-Key"])
    expect(Object.keys(spec.paths["/things/{id}"].patch.responses)).toEqual(expect.arrayContaining(["409", "422"]))
    expect(keyParameterOf(spec.paths["/things/{id}"].get)).toBeUndefined()
    expect(keyedWriteRoutes(api)).toEqual([{ method: "PATCH", path: "/things/:id" }])
  })
})
