import { describe, expect, it } from "@effect/vitest"
import { openApiDocument } from "@tks/api/openapi"

/**
 * Route limits are declared on the operations, as policies are, and counted
 * by the edge; the OpenAPI document shows each one as `x-rate-limit`.
 */
const document: any = openApiDocument("https://tks.example.test")
const limited = Object.entries(document.paths as Record<string, Record<string, any>>)
  .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })))
  .filter(({ operation }) => operation["x-rate-limit"] !== undefined)

const assigning = [{ seconds: 60, limit: 30 }, { seconds: 3600, limit: 300 }]

describe("declared route limits", () => {
  it("exactly the learning-queue reads, the assigning acts and sending a pop quiz declare a route limit, each with its own count", () => {
    const byLabel = Object.fromEntries(limited.map(({ label, operation }) => [label, operation["x-rate-limit"]]))
    expect(byLabel).toEqual({
      "GET /v1/me/learning-queue": { name: "learning-queue", per: "access-token", windows: [{ seconds: 60, limit: 20 }] },
      "GET /v1/people/{id}/learning-queue": { name: "learning-queue", per: "access-token", windows: [{ seconds: 60, limit: 20 }] },
      "POST /v1/lessons/{id}/assignments": { name: "assigning:assignments", per: "access-token", windows: assigning },
      "POST /v1/lessons/{id}/unassign": { name: "assigning:unassign", per: "access-token", windows: assigning },
      "PUT /v1/lessons/{id}/retraining-policy": { name: "assigning:retraining-policy", per: "access-token", windows: assigning },
      "POST /v1/knowledge-obligations": { name: "assigning:knowledge-obligations", per: "access-token", windows: assigning },
      "POST /v1/retraining-assignments": { name: "assigning:retraining-assignments", per: "access-token", windows: assigning },
      "POST /v1/obligations/{id}/waive": { name: "assigning:waive", per: "access-token", windows: assigning },
      "POST /v1/obligations/{id}/cancel": { name: "assigning:cancel", per: "access-token", windows: assigning },
      "POST /v1/obligations/{id}/due-date": { name: "assigning:due-date", per: "access-token", windows: assigning },
      "POST /v1/obligations/{id}/confirm-review": { name: "assigning:confirm-review", per: "access-token", windows: assigning },
      "POST /v1/pop-quizzes": { name: "assigning:pop-quizzes", per: "access-token", windows: assigning }
    })
  })

  it("declaring a limit keeps the operation's declared policy and its 429 response", () => {
    for (const { label, operation } of limited) {
      expect(operation["x-authorization"], label).toBeDefined()
      expect(operation.description, label).toContain("**Who may call:**")
      expect(operation.responses["429"], label).toBeDefined()
    }
  })
})
