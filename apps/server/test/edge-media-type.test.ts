import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { jsonBodyRoutesOfApi } from "../src/http/media-type.js"
import { once } from "./support/once.js"
import { importFixture, raw, TestServerLive } from "./support/server.js"

/**
 * Every route that takes a JSON body refuses any other media type with 415
 * UNSUPPORTED_MEDIA_TYPE and the JSON error body, before its body is read:
 * a multipart body used to be parsed as a form and answer 500, a form body
 * 400. `application/json` passes, with or without a charset; `+json` types
 * are refused (the framework would not read them as JSON).
 */
const fixture: OrgFixtureInput = {
  organization: { name: "Media Org" },
  people: [{ key: "ada", name: "Ada Admin", email: "ada@media.test", role: "admin", tokenScopes: ["training:assign", "content:write", "narration:synthesize"] }]
}
const admin = once(importFixture(fixture).pipe(Effect.map((result) => result.tokens.ada!)))

const routes = jsonBodyRoutesOfApi(Api)
const concrete = (path: string) => path.replace(/:[^/]+/g, "nothing_here")

const boundary = "----tks-probe"
const refused: ReadonlyArray<readonly [string, string]> = [
  [`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\ncontent-disposition: form-data; name="audience"\r\n\r\neveryone\r\n--${boundary}--\r\n`],
  ["multipart/form-data", "garbage"],
  ["application/x-www-form-urlencoded", "audience=everyone&contentId=x"],
  ["text/plain", "{}"],
  ["application/merge-patch+json", "{}"],
  ["application/jsonx", "{}"],
  ["application/json; charset=latin1", "{}"]
]

layer(TestServerLive, { excludeTestServices: true })("a JSON route and the media type of its body", (it) => {
  it("the routes with a JSON body come from the contract: every write route, no read", () => {
    expect(routes.length).toBeGreaterThanOrEqual(19)
    for (const route of routes) expect(["POST", "PUT", "PATCH", "DELETE"], route.path).toContain(route.method)
    expect(routes).toContainEqual({ method: "POST", path: "/v1/pop-quizzes" })
    expect(routes).toContainEqual({ method: "POST", path: "/v1/lessons/:id/assignments" })
  })

  it.effect("any media type but JSON is 415 UNSUPPORTED_MEDIA_TYPE with the JSON error body, on every such route, with a valid token", () =>
    Effect.gen(function*() {
      const token = yield* admin
      for (const route of routes) {
        for (const [contentType, body] of refused) {
          const label = `${route.method} ${route.path} as ${contentType}`
          const response = yield* raw(route.method, concrete(route.path), { token, body, headers: { "content-type": contentType } })
          expect(response.status, `${label}: ${response.text}`).toBe(415)
          expect(response.headers.get("content-type"), label).toContain("application/json")
          expect(response.json, label).toMatchObject({
            _tag: "UnsupportedMediaType",
            code: "UNSUPPORTED_MEDIA_TYPE",
            message: expect.stringContaining("application/json")
          })
        }
      }
    }), 120_000)

  it.effect("application/json, with or without a UTF-8 charset, reaches the endpoint (its own 4xx for this body, or its success where `{}` says all it needs; never 415)", () =>
    Effect.gen(function*() {
      const token = yield* admin
      // The directory connection's acts take only optional fields: `{}` issues a token, or pauses.
      const whole = new Set(["/v1/directory-sync/token", "/v1/directory-sync/pause"])
      for (const route of routes) {
        for (const contentType of ["application/json", "application/json; charset=utf-8", "Application/JSON;Charset=UTF-8"]) {
          const response = yield* raw(route.method, concrete(route.path), { token, body: "{}", headers: { "content-type": contentType } })
          const label = `${route.method} ${route.path} as ${contentType}: ${response.text}`
          expect(response.status, label).toBeGreaterThanOrEqual(whole.has(route.path) ? 200 : 400)
          expect(response.status, label).toBeLessThan(whole.has(route.path) ? 300 : 500)
          expect(response.status, label).not.toBe(415)
        }
      }
    }), 120_000)

  it.effect("a route without a body is not checked: a GET with a form content type is answered as usual", () =>
    Effect.gen(function*() {
      const token = yield* admin
      const response = yield* raw("GET", "/v1/me", { token, headers: { "content-type": "multipart/form-data" } })
      expect(response.status).toBe(200)
    }))
})
