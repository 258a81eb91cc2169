import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { bearerChallenge, parseBearer } from "@tks/domain/bearer"
import { callerMatrixOnce } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

describe("the Authorization header (RFC 6750, RFC 7235)", () => {
  it("Bearer in any case, then one or more spaces, then the token", () => {
    expect(parseBearer("Bearer tks_abc")).toBe("tks_abc")
    expect(parseBearer("bearer tks_abc")).toBe("tks_abc")
    expect(parseBearer("BEARER   tks_abc")).toBe("tks_abc")
    expect(parseBearer("Bearer tks_a-b.c~d+e/f==")).toBe("tks_a-b.c~d+e/f==")
  })

  it("another scheme, no separator, no token, or a token with other characters is no bearer credential", () => {
    for (const header of [undefined, "", "Bearer", "Bearer ", "Digest tks_abc", "Basic  tks_abc", "XXXXXXXtks_abc", "Bearertks_abc", "Bearer\ttks_abc", "Bearer tks abc", "Bearer tks_\u00e9"]) {
      expect(parseBearer(header), JSON.stringify(header)).toBeUndefined()
    }
  })

  it("the 401 challenge says invalid_token only when a bearer token came", () => {
    expect(bearerChallenge(undefined)).toBe("Bearer")
    expect(bearerChallenge("Basic YTpi")).toBe("Bearer")
    expect(bearerChallenge("Bearer tks_nope")).toBe("Bearer error=\"invalid_token\"")
  })
})

const setup = callerMatrixOnce({ organization: { name: "Bearer Org" } })

layer(TestServerLive, { excludeTestServices: true })("bearer authentication on the server", (it) => {
  it.effect("Bearer followed by one or more spaces authenticates, in any case of the scheme", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const header of [`Bearer ${tokens.admin}`, `Bearer  ${tokens.admin}`, `bearer ${tokens.admin}`, `BEARER    ${tokens.admin}`]) {
        const response = yield* raw("GET", "/v1/me", { headers: { authorization: header } })
        expect(response.status, header.slice(0, 12)).toBe(200)
      }
    }))

  it.effect("a valid token under another scheme or glued to seven other characters is 401", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const header of [`Digest ${tokens.admin}`, `Basic  ${tokens.admin}`, `XXXXXXX${tokens.admin}`, `Bearer${tokens.admin}`]) {
        const response = yield* raw("GET", "/v1/me", { headers: { authorization: header } })
        expect(response.status, header.slice(0, 12)).toBe(401)
        expect(response.json).toMatchObject({ code: "UNAUTHORIZED" })
        expect(response.headers.get("www-authenticate")).toBe("Bearer")
      }
    }))

  it.effect("a 401 carries WWW-Authenticate: Bearer, with error=\"invalid_token\" when a token was given", () =>
    Effect.gen(function*() {
      const none = yield* raw("GET", "/v1/me")
      expect(none.status).toBe(401)
      expect(none.headers.get("www-authenticate")).toBe("Bearer")
      const wrong = yield* raw("GET", "/v1/me", { token: "tks_not_a_real_token" })
      expect(wrong.status).toBe(401)
      expect(wrong.headers.get("www-authenticate")).toBe("Bearer error=\"invalid_token\"")
    }))
})
