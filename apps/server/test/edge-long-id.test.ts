import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { once } from "./support/once.js"
import { importFixture, raw, TestServerLive } from "./support/server.js"

/**
 * The router matches a path parameter of at most 100 characters; a longer
 * id used to fall to the wrong-method check, which found the path's pattern
 * and answered 405 "GET is not allowed …; allowed: GET, HEAD, OPTIONS".
 * An id of any length that names nothing is 404 NOT_FOUND, as a
 * 100-character one is.
 */
const fixture: OrgFixtureInput = {
  organization: { name: "Long Id Org" },
  people: [{ key: "ada", name: "Ada Admin", email: "ada@long-id.test", role: "admin", tokenScopes: [] }]
}
const admin = once(importFixture(fixture).pipe(Effect.map((result) => result.tokens.ada!)))

layer(TestServerLive, { excludeTestServices: true })("an id longer than the router matches", (it) => {
  it.effect("GET /v1/lessons/{id} with 100, 101, 500 and 2,000 characters: 404 NOT_FOUND each, never 405", () =>
    Effect.gen(function*() {
      const token = yield* admin
      for (const length of [100, 101, 500, 2_000]) {
        for (const path of [`/v1/lessons/${"A".repeat(length)}`, `/v1/members/${"u".repeat(length)}`]) {
          const response = yield* raw("GET", path, { token })
          const label = `${path.slice(0, 20)}… (${length}): ${response.text.slice(0, 200)}`
          expect(response.status, label).toBe(404)
          expect(response.json, label).toMatchObject({ code: "NOT_FOUND", message: expect.any(String) })
          expect(response.headers.get("allow"), label).toBeNull()
        }
      }
    }))

  it.effect("a wrong method with a long id is still 405 with Allow: the path exists", () =>
    Effect.gen(function*() {
      const response = yield* raw("DELETE", `/v1/lessons/${"A".repeat(300)}`)
      expect(response.status).toBe(405)
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
    }))
})
