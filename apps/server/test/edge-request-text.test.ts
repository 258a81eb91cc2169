import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { requestTextIssue } from "../src/http/request-text.js"
import { withCallerMatrix } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

describe("path and query text (no NUL, no lone surrogate)", () => {
  it("NUL, other control characters, bad escapes and invalid UTF-8 are refused, naming the parameter", () => {
    expect(requestTextIssue("/v1/members/%00")?.path).toBe("path")
    expect(requestTextIssue("/v1/members?query=a%00b")?.path).toBe("query")
    expect(requestTextIssue("/v1/members?teamId=%00")?.path).toBe("teamId")
    expect(requestTextIssue("/v1/members?query=%1F")?.path).toBe("query")
    expect(requestTextIssue("/v1/members?query=%7F")?.path).toBe("query")
    expect(requestTextIssue("/v1/members?query=%ZZ")?.path).toBe("query")
    expect(requestTextIssue("/v1/members?query=%C3%28")?.path).toBe("query")
    expect(requestTextIssue("/v1/members/%ED%A0%80")?.path).toBe("path")
    expect(requestTextIssue("/v1/members?a%00=1")?.path).toBe("query")
  })

  it("ordinary text passes: escapes of UTF-8, plus as space, empty values", () => {
    for (const url of ["/v1/members", "/v1/members?query=Jos%C3%A9+M", "/v1/members?query=&limit=5", "/v1/members/usr_1?x", "/v1/members?query=%F0%9F%98%80"]) {
      expect(requestTextIssue(url), url).toBeUndefined()
    }
  })
})

let adminToken: string | undefined
const admin = Effect.suspend(() =>
  adminToken !== undefined
    ? Effect.succeed(adminToken)
    : withCallerMatrix({ organization: { name: "Text Org" } }).pipe(Effect.map((m) => (adminToken = m.tokens.admin)))
)

layer(TestServerLive, { excludeTestServices: true })("invalid text at the edge", (it) => {
  it.effect("a NUL byte in a path id or a query is 400 VALIDATION_ERROR, not a 503 outage", () =>
    Effect.gen(function*() {
      const token = yield* admin
      const cases = [["/v1/members/%00", "path"], ["/v1/members?query=a%00b", "query"], ["/v1/members?teamId=%00", "teamId"]] as const
      for (const [path, parameter] of cases) {
        const response = yield* raw("GET", path, { token })
        expect(response.status, path).toBe(400)
        expect(response.json).toMatchObject({ code: "VALIDATION_ERROR", issues: [{ path: parameter }] })
        expect(response.json.message).toContain(parameter)
      }
    }))

  it.effect("invalid percent-encoding or UTF-8 in the query or path is 400, not silently read as other text", () =>
    Effect.gen(function*() {
      const token = yield* admin
      for (const path of ["/v1/members?query=%ZZ", "/v1/members?query=%C3%28", "/v1/members/%C3%28", "/v1/members?query=%0A"]) {
        const response = yield* raw("GET", path, { token })
        expect(response.status, path).toBe(400)
        expect(response.json).toMatchObject({ code: "VALIDATION_ERROR" })
      }
    }))

  it.effect("a query with ordinary non-ASCII text is answered as before", () =>
    Effect.gen(function*() {
      const token = yield* admin
      const response = yield* raw("GET", "/v1/members?query=Jos%C3%A9", { token })
      expect(response.status).toBe(200)
      expect(response.json).toMatchObject({ data: [], total: 0 })
    }))
})
