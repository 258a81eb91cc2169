import { describe, expect, it } from "@effect/vitest"
import { verificationState } from "@tks/domain/org-chart"

const dayMs = 86_400_000
const verifiedAt = new Date("2026-01-10T08:30:00.000Z")

describe("verificationState", () => {
  it("an org chart never verified is never_verified, due now, with no next due date", () => {
    expect(verificationState(null, 90, new Date("2026-06-01T00:00:00.000Z"))).toEqual({
      status: "never_verified",
      nextDueAt: null,
      isDue: true
    })
  })

  it("a verification within the interval is current and names the next due date", () => {
    const now = new Date(verifiedAt.getTime() + 30 * dayMs)
    expect(verificationState(verifiedAt, 90, now)).toEqual({
      status: "current",
      nextDueAt: new Date("2026-04-10T08:30:00.000Z"),
      isDue: false
    })
  })

  it("one millisecond before the boundary it is still current", () => {
    const now = new Date(verifiedAt.getTime() + 90 * dayMs - 1)
    expect(verificationState(verifiedAt, 90, now)).toMatchObject({ status: "current", isDue: false })
  })

  it("exactly at the boundary (lastVerifiedAt + intervalDays) reverification is due", () => {
    const now = new Date(verifiedAt.getTime() + 90 * dayMs)
    expect(verificationState(verifiedAt, 90, now)).toEqual({
      status: "reverification_due",
      nextDueAt: now,
      isDue: true
    })
  })

  it("past the boundary reverification is due and the due date stays the boundary", () => {
    const now = new Date(verifiedAt.getTime() + 400 * dayMs)
    expect(verificationState(verifiedAt, 90, now)).toEqual({
      status: "reverification_due",
      nextDueAt: new Date(verifiedAt.getTime() + 90 * dayMs),
      isDue: true
    })
  })

  it("the interval is the organization's own: 7 days makes a 10-day-old verification due", () => {
    const now = new Date(verifiedAt.getTime() + 10 * dayMs)
    expect(verificationState(verifiedAt, 7, now)).toEqual({
      status: "reverification_due",
      nextDueAt: new Date(verifiedAt.getTime() + 7 * dayMs),
      isDue: true
    })
  })
})
