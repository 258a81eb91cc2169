import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { raw, TestServerLive } from "./support/server.js"

layer(TestServerLive, { excludeTestServices: true })("operating the service", (it) => {
  describe("health and readiness", () => {
    it.effect("GET /health answers 200 without a token", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/health")
        expect(response.status).toBe(200)
        expect(response.json).toEqual({ status: "ok" })
      }))

    it.effect("GET /ready answers 200 while the database is reachable", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/ready")
        expect(response.status).toBe(200)
        expect(response.json).toEqual({ status: "ready" })
      }))
  })

  describe("the OpenAPI document and the docs page", () => {
    it.effect("GET /v1/openapi.json is an OpenAPI 3.1 document of every /v1 endpoint with bearer security", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/v1/openapi.json")
        expect(response.status).toBe(200)
        const document = response.json
        expect(document.openapi).toBe("3.1.0")
        for (const path of [
          "/v1/me",
          "/v1/teams",
          "/v1/members",
          "/v1/members/{id}",
          "/v1/invitations",
          "/v1/reporting-lines",
          "/v1/company-roles",
          "/v1/company-roles/{id}",
          "/v1/company-roles/{id}/duties",
          "/v1/findings",
          "/v1/org-chart/verification",
          "/v1/directory-sync",
          "/v1/directory-sync/events",
          "/v1/directory-sync/domains"
        ]) {
          expect(document.paths[path]?.get, path).toBeDefined()
          expect(document.paths[path].get.summary, path).toEqual(expect.any(String))
          expect(Object.keys(document.paths[path].get.responses), path).toEqual(
            expect.arrayContaining(["200", "400", "401", "503"])
          )
        }
        expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
      }))

    it.effect("GET /docs is an HTML page that loads nothing from another host (works offline)", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/docs")
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type")).toContain("text/html")
        expect(response.text).not.toMatch(/<script[^>]+src="https?:\/\//)
        expect(response.text).toContain("/v1/members")
      }))
  })
})
