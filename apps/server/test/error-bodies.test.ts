import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { withCallerMatrix } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

let adminToken: string | undefined
const admin = Effect.suspend(() =>
  adminToken !== undefined
    ? Effect.succeed(adminToken)
    : withCallerMatrix({ organization: { name: "Errors Org" } }).pipe(
      Effect.map((m) => (adminToken = m.tokens.admin))
    )
)

const expectErrorBody = (body: unknown, code: string) => {
  expect(body).toMatchObject({ code, message: expect.any(String) })
  expect((body as { message: string }).message.length).toBeGreaterThan(0)
}

layer(TestServerLive, { excludeTestServices: true })("error bodies", (it) => {
  describe("every non-2xx answer is JSON {code, message}", () => {
    it.effect("a query parameter of the wrong type is 400 VALIDATION_ERROR naming the parameter", () =>
      Effect.gen(function*() {
        const token = yield* admin
        for (const query of ["limit=abc", "limit=0", "limit=101", "limit=1.5", "status=retired", "noManager=yes"]) {
          const response = yield* raw("GET", `/v1/members?${query}`, { token })
          expect(response.status, query).toBe(400)
          expect(response.headers.get("content-type")).toContain("application/json")
          expectErrorBody(response.json, "VALIDATION_ERROR")
          expect(response.json.message).toContain(query.split("=")[0])
        }
      }))

    it.effect("an unknown enum value on another endpoint is 400 VALIDATION_ERROR too", () =>
      Effect.gen(function*() {
        const token = yield* admin
        const response = yield* raw("GET", "/v1/directory-sync/events?outcome=MAYBE", { token })
        expect(response.status).toBe(400)
        expectErrorBody(response.json, "VALIDATION_ERROR")
      }))

    it.effect("an unknown route is 404 NOT_FOUND with a body, with or without a token", () =>
      Effect.gen(function*() {
        const token = yield* admin
        for (const options of [{}, { token }]) {
          const response = yield* raw("GET", "/v1/no-such-thing", options)
          expect(response.status).toBe(404)
          expectErrorBody(response.json, "NOT_FOUND")
        }
      }))

    it.effect("a method the route does not have is 405 METHOD_NOT_ALLOWED with a body and Allow", () =>
      Effect.gen(function*() {
        const token = yield* admin
        const response = yield* raw("DELETE", "/v1/members", { token })
        expect(response.status).toBe(405)
        expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
        expectErrorBody(response.json, "METHOD_NOT_ALLOWED")
      }))

    it.effect("a missing, malformed or non-bearer Authorization header is 401 UNAUTHORIZED", () =>
      Effect.gen(function*() {
        for (const headers of [{}, { authorization: "Bearer" }, { authorization: "Basic YTpi" }, { authorization: "Bearer " + "x".repeat(5000) }]) {
          const response = yield* raw("GET", "/v1/me", { headers })
          expect(response.status, JSON.stringify(headers).slice(0, 40)).toBe(401)
          expectErrorBody(response.json, "UNAUTHORIZED")
        }
      }))

    it.effect("authentication comes before input checks: bad input without a token is 401", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/v1/members?limit=abc")
        expect(response.status).toBe(401)
        expectErrorBody(response.json, "UNAUTHORIZED")
      }))
  })
})
