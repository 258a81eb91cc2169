import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Api } from "@tks/api/api"

const document = OpenApi.fromApi(Api)
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, { summary?: string; description?: string; security?: unknown; responses: Record<string, unknown> }>)
    .filter(([method]) => ["get", "post", "put", "delete", "patch"].includes(method))
    .map(([method, operation]) => ({ path, method, operation }))
)

describe("the contract", () => {
  it("every path is under /v1", () => {
    expect(operations.length).toBeGreaterThan(0)
    for (const { path } of operations) expect(path.startsWith("/v1/")).toBe(true)
  })

  it("every endpoint is documented: a summary and a description for OpenAPI", () => {
    for (const { path, method, operation } of operations) {
      expect(operation.summary, `${method} ${path}`).toEqual(expect.any(String))
      expect(operation.description, `${method} ${path}`).toEqual(expect.any(String))
    }
  })

  it("every endpoint needs the bearer token and declares 400, 401 and 503 error bodies", () => {
    for (const { path, method, operation } of operations) {
      expect(operation.security, `${method} ${path}`).toEqual([{ bearer: [] }])
      for (const status of ["400", "401", "503"]) {
        expect(operation.responses[status], `${method} ${path} ${status}`).toBeDefined()
      }
    }
  })

  it("list endpoints take cursor and limit", () => {
    // List envelopes are named components: look through the reference.
    const lists = operations.filter(({ operation }) =>
      JSON.stringify(operation.responses["200"] ?? null).includes("Page\"")
    )
    expect(lists.length).toBeGreaterThanOrEqual(8)
    for (const { path, operation } of lists) {
      const names = ((operation as { parameters?: Array<{ name: string }> }).parameters ?? []).map((p) => p.name)
      expect(names, path).toEqual(expect.arrayContaining(["cursor", "limit"]))
    }
  })
})
