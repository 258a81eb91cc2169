import { describe, expect, it } from "@effect/vitest"
import { Either, Option, ParseResult, Schema } from "effect"
import { Api } from "@tks/api/api"
import { Authentication } from "@tks/api/authentication"
import { ClosedQuery, queryFreeRoutes } from "@tks/api/closed-inputs"

const endpoints = Object.values(Api.groups).flatMap((group) => Object.values(group.endpoints))
const label = (endpoint: { readonly method: string; readonly path: string }) => `${endpoint.method} ${endpoint.path}`

/** The issues decoding `input` with the schema as the server does (no options of its own). */
const issuesOf = (schema: Schema.Schema.Any, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>)(input)
  return Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left) : []
}

describe("the contract's inputs are closed", () => {
  it("every body and query schema refuses a field it does not declare, whatever else is wrong, without options from the caller", () => {
    let checked = 0
    for (const endpoint of endpoints) {
      const declared: ReadonlyArray<Option.Option<unknown>> = [endpoint.payloadSchema, endpoint.urlParamsSchema]
      for (const schema of declared.flatMap(Option.toArray) as ReadonlyArray<Schema.Schema.Any>) {
        const paths = issuesOf(schema, { zzUndeclared: "1", zzAnother: "2" }).map((issue) => issue.path.join("."))
        expect(paths, label(endpoint)).toEqual(expect.arrayContaining(["zzUndeclared", "zzAnother"]))
        checked++
      }
    }
    expect(checked).toBeGreaterThan(30)
  })

  it("a nested object is closed too", () => {
    const assign = endpoints.find((endpoint) => label(endpoint) === "POST /v1/lessons/:id/assignments")!
    const issues = issuesOf(Option.getOrThrow(assign.payloadSchema), { audience: "everyone", due: { type: "days", days: 3, hours: 1 } })
    expect(issues.map((issue) => issue.path.join("."))).toContain("due.hours")
  })

  it("every group runs ClosedQuery after Authentication (the last middleware added runs first)", () => {
    for (const group of Object.values(Api.groups)) {
      const keys = [...group.middlewares].map((middleware) => middleware.key)
      expect(keys.indexOf(ClosedQuery.key), group.identifier).toBe(0)
      expect(keys.indexOf(Authentication.key), group.identifier).toBeGreaterThan(0)
    }
  })

  it("the routes that take no query are exactly the endpoints without a query schema", () => {
    const free = queryFreeRoutes(Api)
    expect(free.has("GET /v1/me")).toBe(true)
    expect(free.has("POST /v1/lessons/:id/assignments")).toBe(true)
    expect(free.has("GET /v1/members")).toBe(false)
    expect(free.size).toBe(endpoints.filter((endpoint) => Option.isNone(endpoint.urlParamsSchema)).length)
  })
})
