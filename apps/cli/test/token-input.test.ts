import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { parseExpiry, parseScopes } from "../src/token-input.js"

const now = new Date("2026-11-21T10:00:00.000Z")

describe("token create input", () => {
  it("--expires takes spans from now and ISO dates in the future", () => {
    expect(parseExpiry("30d", now)).toEqual(Either.right(new Date("2026-12-21T10:00:00.000Z")))
    expect(parseExpiry("12h", now)).toEqual(Either.right(new Date("2026-11-21T22:00:00.000Z")))
    expect(parseExpiry("2w", now)).toEqual(Either.right(new Date("2026-12-05T10:00:00.000Z")))
    expect(parseExpiry("2027-01-01T00:00:00Z", now)).toEqual(Either.right(new Date("2027-01-01T00:00:00.000Z")))
    expect(Either.isLeft(parseExpiry("2020-01-01", now))).toBe(true)
    expect(Either.isLeft(parseExpiry("soon", now))).toBe(true)
    expect(Either.isLeft(parseExpiry("0d", now))).toBe(true)
  })

  it("--scopes is a comma-separated list of known scopes", () => {
    expect(parseScopes("content:write, narration:synthesize,content:write")).toEqual(
      Either.right(["content:write", "narration:synthesize"])
    )
    expect(parseScopes("")).toEqual(Either.right([]))
    expect(parseScopes("content:write,admin")).toEqual(
      Either.left("unknown scope admin; the scopes are training:assign, content:write, narration:synthesize")
    )
  })
})
