import { describe, expect, it } from "@effect/vitest"
import { directoryTokenActive } from "../src/administration/rules.js"

const now = new Date("2026-06-01T12:00:00.000Z")

describe("directoryTokenActive", () => {
  it("a token that exists, is not revoked and has not expired is active", () => {
    expect(directoryTokenActive({ exists: true, revokedAt: null, expiresAt: new Date("2026-06-02T00:00:00.000Z") }, now)).toBe(true)
  })

  it("no expiry chosen (null) means the token never expires", () => {
    expect(directoryTokenActive({ exists: true, revokedAt: null, expiresAt: null }, now)).toBe(true)
  })

  it("no token at all is not active", () => {
    expect(directoryTokenActive({ exists: false, revokedAt: null, expiresAt: null }, now)).toBe(false)
  })

  it("a revoked token is not active, even with time left", () => {
    expect(directoryTokenActive({ exists: true, revokedAt: new Date("2026-05-01T00:00:00.000Z"), expiresAt: null }, now)).toBe(false)
  })

  it("a token expiring exactly now is expired; one millisecond later it would still be active", () => {
    expect(directoryTokenActive({ exists: true, revokedAt: null, expiresAt: now }, now)).toBe(false)
    expect(directoryTokenActive({ exists: true, revokedAt: null, expiresAt: new Date(now.getTime() + 1) }, now)).toBe(true)
  })
})
