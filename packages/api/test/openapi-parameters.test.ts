import { describe, expect, it } from "@effect/vitest"
import { componentProperties, nonNull, operations } from "./openapi-support.js"

const queryParameters = operations.flatMap(({ label, operation }) =>
  (operation.parameters ?? []).filter((p: any) => p.in === "query").map((parameter: any) => ({ label, parameter }))
)

describe("the OpenAPI document publishes the wire types", () => {
  it("every limit is an optional integer from 1 to 100 defaulting to 50, not a string (search: 1 to 50, default 10)", () => {
    const search = queryParameters.filter(({ label, parameter }) => label === "GET /v1/search" && parameter.name === "limit")
    expect(search.map(({ parameter }) => [parameter.required, parameter.schema])).toEqual([
      [false, { type: "integer", minimum: 1, maximum: 50, default: 10, description: expect.any(String) }]
    ])
    const limits = queryParameters.filter(({ label, parameter }) => label !== "GET /v1/search" && parameter.name === "limit")
    expect(limits.length).toBeGreaterThanOrEqual(8)
    for (const { label, parameter } of limits) {
      expect(parameter.required, label).toBe(false)
      expect(parameter.schema, label).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 50 })
      expect(parameter.description, label).toEqual(expect.any(String))
    }
  })

  it("boolean query parameters are booleans, not the strings true and false", () => {
    const flags = queryParameters.filter(({ parameter }) => parameter.name === "noManager")
    expect(flags.length).toBe(2)
    for (const { label, parameter } of flags) {
      expect(parameter.schema.type, label).toBe("boolean")
      expect(parameter.schema.description, label).toEqual(expect.any(String))
    }
    for (const { label, parameter } of queryParameters) {
      expect(parameter.schema.enum, `${label} ${parameter.name}`).not.toEqual(["true", "false"])
    }
  })

  it("every timestamp field (…At) is a date-time string", () => {
    const timestamps = componentProperties.filter(({ name }) => name.endsWith("At"))
    expect(timestamps.map(({ name }) => name)).toEqual(expect.arrayContaining(["createdAt", "updatedAt", "expiresAt", "deactivatedAt"]))
    for (const { component, name, property } of timestamps) {
      for (const alternative of nonNull(property)) {
        expect(alternative, `${component}.${name}`).toMatchObject({ type: "string", format: "date-time" })
      }
    }
  })

  it("counts are integers of 0 or more (a nullable count when there is one)", () => {
    const counts = componentProperties.filter(({ name }) => /^(total|count[A-Z].*|.*Count|intervalDays)$/.test(name))
    expect(counts.map(({ component, name }) => `${component}.${name}`)).toEqual(
      expect.arrayContaining([
        "MemberCountedPage.total",
        "Team.memberCount",
        "CompanyRole.memberCount",
        "DirectoryConnection.countProvisioned",
        "OrgChartVerification.intervalDays",
        "RetrainingPolicy.intervalDays"
      ])
    )
    for (const { component, name, property } of counts) {
      for (const alternative of nonNull(property)) {
        expect(alternative, `${component}.${name}`).toMatchObject({ type: "integer", minimum: expect.any(Number) })
        expect(alternative.minimum, `${component}.${name}`).toBeGreaterThanOrEqual(0)
      }
    }
  })
})
