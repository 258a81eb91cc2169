import { describe, expect, it } from "@effect/vitest"
import { DirectoryOperation, DirectoryOutcome } from "@tks/domain/administration"
import { authRefusal, countersMovedBy, resumedStatus, type TokenMatch } from "../src/directory/rules.js"

describe("countersMovedBy", () => {
  const moved = (operation: DirectoryOperation, outcome: DirectoryOutcome, changed = true) => {
    const moves = countersMovedBy(operation, outcome, changed)
    return { ...moves, counted: Object.entries(moves).filter(([key, value]) => key !== "synced" && value !== 0).map(([key]) => key) }
  }

  it("an applied CREATE provisions, UPDATE and REACTIVATE update, DEACTIVATE and DELETE deactivate, each by one and moving lastSyncAt when it changed something", () => {
    expect(moved("CREATE", "APPLIED")).toMatchObject({ counted: ["provisioned"], provisioned: 1, synced: true })
    expect(moved("UPDATE", "APPLIED")).toMatchObject({ counted: ["updated"], updated: 1, synced: true })
    expect(moved("REACTIVATE", "APPLIED")).toMatchObject({ counted: ["updated"], updated: 1, synced: true })
    expect(moved("DEACTIVATE", "APPLIED")).toMatchObject({ counted: ["deactivated"], deactivated: 1, synced: true })
    expect(moved("DELETE", "APPLIED")).toMatchObject({ counted: ["deactivated"], deactivated: 1, synced: true })
    expect(moved("UPDATE", "APPLIED", false)).toMatchObject({ counted: ["updated"], synced: false })
  })

  it("any skipped write counts as skipped and never moves lastSyncAt; refused and failed writes count nothing", () => {
    for (const operation of ["CREATE", "UPDATE", "DEACTIVATE", "REACTIVATE", "DELETE"] as const) {
      expect(moved(operation, "SKIPPED"), operation).toMatchObject({ counted: ["skipped"], skipped: 1, synced: false })
      expect(moved(operation, "REJECTED"), operation).toMatchObject({ counted: [], synced: false })
      expect(moved(operation, "FAILED"), operation).toMatchObject({ counted: [], synced: false })
    }
  })

  it("LIST and AUTH never move a counter or lastSyncAt, whatever their outcome", () => {
    for (const operation of ["LIST", "AUTH"] as const) {
      for (const outcome of DirectoryOutcome.literals) {
        expect(moved(operation, outcome), `${operation} ${outcome}`).toMatchObject({ counted: [], synced: false })
      }
    }
    expect(DirectoryOperation.literals).toHaveLength(7)
  })
})

describe("authRefusal", () => {
  const good: TokenMatch = { current: true, revoked: false, expired: false, expiresAt: null, status: "ACTIVE", pausedReason: null }

  it("the current token of a PENDING, ACTIVE or ERROR connection is let in", () => {
    for (const status of ["PENDING", "ACTIVE", "ERROR"] as const) expect(authRefusal({ ...good, status }), status).toBeNull()
  })

  it("a replaced token is 401 TOKEN_REVOKED, before anything else is looked at", () => {
    expect(authRefusal({ ...good, current: false, expired: true, status: "PAUSED" })).toEqual({
      status: 401,
      reason: "TOKEN_REVOKED",
      detail: "the directory token was replaced by a newer one; use the current token"
    })
  })

  it("a revoked token is 401 TOKEN_REVOKED, an expired one 401 TOKEN_EXPIRED naming when, even when the connection is paused", () => {
    expect(authRefusal({ ...good, revoked: true, status: "PAUSED" })).toMatchObject({ status: 401, reason: "TOKEN_REVOKED" })
    expect(authRefusal({ ...good, expired: true, expiresAt: new Date("2026-01-02T03:04:05.000Z"), status: "PAUSED" })).toEqual({
      status: 401,
      reason: "TOKEN_EXPIRED",
      detail: "the directory token expired on 2026-01-02T03:04:05.000Z"
    })
  })

  it("a disconnected connection is 401 CONNECTION_DISCONNECTED; a paused one 403 CONNECTION_PAUSED with its reason, if it has one", () => {
    expect(authRefusal({ ...good, status: "DISCONNECTED" })).toMatchObject({ status: 401, reason: "CONNECTION_DISCONNECTED" })
    expect(authRefusal({ ...good, status: "PAUSED", pausedReason: "Moving tenants" })).toEqual({
      status: 403,
      reason: "CONNECTION_PAUSED",
      detail: "the directory connection is paused: Moving tenants"
    })
    expect(authRefusal({ ...good, status: "PAUSED" })?.detail).toBe("the directory connection is paused")
  })
})

describe("resumedStatus", () => {
  it("ACTIVE once the token was used or a request changed something; PENDING while the directory never called", () => {
    const at = new Date("2026-01-01T00:00:00.000Z")
    expect(resumedStatus({ tokenLastUsedAt: at, lastSyncAt: null })).toBe("ACTIVE")
    expect(resumedStatus({ tokenLastUsedAt: null, lastSyncAt: at })).toBe("ACTIVE")
    expect(resumedStatus({ tokenLastUsedAt: null, lastSyncAt: null })).toBe("PENDING")
  })
})
