import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  askedDue,
  confirmDue,
  countDays,
  type DueState,
  dueInDays,
  DueSpec,
  earlier,
  initialDue,
  mergeDue,
  noDeadline,
  overrideDue,
  parseOffsetDateTime,
  rebase
} from "@tks/domain/due-date"

const at = (iso: string) => new Date(iso)
const assignedAt = at("2026-03-01T09:30:00.000Z")

describe("a due date given as a date with a UTC offset", () => {
  it("names the instant, whatever the offset (Z, ±hh:mm, ±hhmm), with or without seconds and fractions", () => {
    expect(parseOffsetDateTime("2026-12-01T17:00:00Z")?.toISOString()).toBe("2026-12-01T17:00:00.000Z")
    expect(parseOffsetDateTime("2026-12-01T17:00:00+02:00")?.toISOString()).toBe("2026-12-01T15:00:00.000Z")
    expect(parseOffsetDateTime("2026-12-01T17:00-05:30")?.toISOString()).toBe("2026-12-01T22:30:00.000Z")
    expect(parseOffsetDateTime("2026-12-01T17:00:00.123456+0100")?.toISOString()).toBe("2026-12-01T16:00:00.123Z")
    expect(parseOffsetDateTime("2026-12-31T23:30:00-01:00")?.toISOString()).toBe("2027-01-01T00:30:00.000Z")
  })

  it("is refused without an offset, as a bare date, or when the date or offset cannot exist", () => {
    for (
      const text of [
        "2026-12-01T17:00:00",
        "2026-12-01",
        "2026-02-30T10:00:00Z",
        "2026-13-01T10:00:00Z",
        "2026-12-01T24:00:00Z",
        "2026-12-01T17:00:00+24:00",
        "2026-12-01 17:00:00Z",
        "tomorrow",
        ""
      ]
    ) {
      expect(parseOffsetDateTime(text), text).toBeUndefined()
    }
    expect(parseOffsetDateTime("2028-02-29T00:00:00Z")?.toISOString()).toBe("2028-02-29T00:00:00.000Z")
  })
})

describe("the due of an assignment", () => {
  const decode = Schema.decodeUnknownEither(DueSpec)
  const accepted = (input: unknown) => Either.isRight(decode(input))

  it("is a date with an offset, or 1 to 3650 whole days", () => {
    expect(accepted({ type: "date", date: "2026-12-01T17:00:00+02:00" })).toBe(true)
    expect(accepted({ type: "date", date: "2026-12-01" })).toBe(false)
    expect(accepted({ type: "days", days: 1 })).toBe(true)
    expect(accepted({ type: "days", days: 3650 })).toBe(true)
    for (const days of [0, 3651, 1.5, -1, "5", null]) expect(accepted({ type: "days", days }), String(days)).toBe(false)
    expect(accepted({ type: "weeks", days: 2 })).toBe(false)
    expect(accepted({ type: "days" })).toBe(false)
  })

  it("omitted means no deadline; days count from the assignment; a date is taken as given", () => {
    expect(askedDue(undefined, assignedAt)).toEqual(noDeadline)
    expect(askedDue({ type: "days", days: 14 }, assignedAt)).toEqual({
      date: at("2026-03-15T09:30:00.000Z"),
      count: { days: 14, basis: "assignment", basisAt: assignedAt }
    })
    expect(askedDue({ type: "date", date: "2026-04-01T00:00:00+02:00" }, assignedAt)).toEqual({
      date: at("2026-03-31T22:00:00.000Z"),
      count: null
    })
    expect(countDays(3650, assignedAt).toISOString()).toBe("2036-02-27T09:30:00.000Z")
  })

  it("earlier: null is no deadline, later than every date", () => {
    expect(earlier(at("2026-01-01T00:00:00Z"), null)).toBe(true)
    expect(earlier(null, at("2026-01-01T00:00:00Z"))).toBe(false)
    expect(earlier(null, null)).toBe(false)
    expect(earlier(at("2026-01-01T00:00:00Z"), at("2026-01-01T00:00:00Z"))).toBe(false)
  })
})

const april = at("2026-04-01T00:00:00.000Z")
const may = at("2026-05-01T00:00:00.000Z")
const june = at("2026-06-01T00:00:00.000Z")

describe("merging another assignment into an active obligation", () => {
  it("the earlier date wins, with the way it was counted", () => {
    const state = initialDue({ date: may, count: null })
    const merged = mergeDue(state, dueInDays(31, "assignment", at("2026-03-01T00:00:00.000Z")))
    expect(merged.dueDate).toEqual(april)
    expect(merged.computed).toEqual(april)
    expect(merged.count).toEqual({ days: 31, basis: "assignment", basisAt: at("2026-03-01T00:00:00.000Z") })
    expect(mergeDue(state, { date: june, count: null })).toBe(state)
  })

  it("no deadline loses to any date, and never removes one", () => {
    expect(mergeDue(initialDue(noDeadline), { date: june, count: null }).dueDate).toEqual(june)
    const dated = initialDue({ date: june, count: null })
    expect(mergeDue(dated, noDeadline)).toBe(dated)
  })

  it("a date set by hand is never moved; the computed date behind it still merges", () => {
    const overridden = overrideDue(initialDue({ date: may, count: null }), june)
    const merged = mergeDue(overridden, { date: april, count: null })
    expect(merged).toMatchObject({ dueDate: june, overridden: true, computed: april })
    // Removing the override shows the merged computed date.
    expect(overrideDue(merged, null)).toMatchObject({ dueDate: april, overridden: false })
  })

  it("a date waiting for review is kept", () => {
    const flagged: DueState = { ...initialDue({ date: may, count: null }), needsReview: true }
    expect(mergeDue(flagged, { date: april, count: null })).toMatchObject({ dueDate: may, needsReview: true, computed: april })
  })
})

describe("a change of the basis of a day-counted date (needsReview)", () => {
  const tookOn = at("2026-01-01T00:00:00.000Z")
  const tookOnAgain = at("2026-02-01T00:00:00.000Z")
  const counted = initialDue(dueInDays(30, "duty", tookOn))

  it("flags a not-overridden date for review and keeps it until confirmed", () => {
    const moved = rebase(counted, tookOnAgain)
    expect(moved).toMatchObject({ needsReview: true, dueDate: countDays(30, tookOn), overridden: false })
    expect(moved.count?.basisAt).toEqual(tookOnAgain)
    // Merging the same knowledge obligation with the new basis is the same change.
    expect(mergeDue(counted, dueInDays(30, "duty", tookOnAgain))).toEqual(moved)
    // Confirmed: the admin's date, no flag; the same basis again changes nothing.
    const confirmed = confirmDue(moved, june)
    expect(confirmed).toMatchObject({ needsReview: false, dueDate: june, computed: june })
    // (Not a change of basis, so no review: an ordinary merge, where the earlier date wins.)
    expect(mergeDue(confirmed, dueInDays(30, "duty", tookOnAgain))).toMatchObject({ needsReview: false, dueDate: countDays(30, tookOnAgain) })
    const later = confirmDue(moved, at("2026-02-15T00:00:00.000Z"))
    expect(mergeDue(later, dueInDays(30, "duty", tookOnAgain))).toBe(later)
  })

  it("confirming with no date leaves no deadline", () => {
    expect(confirmDue(rebase(counted, tookOnAgain), null)).toMatchObject({ needsReview: false, dueDate: null, computed: null })
  })

  it("the same basis, a date not counted in days, or an overridden date: no review", () => {
    expect(rebase(counted, tookOn)).toBe(counted)
    const fixed = initialDue({ date: may, count: null })
    expect(rebase(fixed, tookOnAgain)).toBe(fixed)
    const overridden = rebase(overrideDue(counted, june), tookOnAgain)
    expect(overridden).toMatchObject({ needsReview: false, dueDate: june, overridden: true, computed: countDays(30, tookOnAgain) })
  })

  it("an assignment counted from its own time is merged by date, never flagged", () => {
    const assigned = initialDue(dueInDays(30, "assignment", tookOn))
    const again = mergeDue(assigned, dueInDays(30, "assignment", tookOnAgain))
    expect(again).toBe(assigned)
  })
})

describe("setting a due date by hand", () => {
  it("a date overrides; null removes the override and restores the computed date", () => {
    const state = initialDue({ date: may, count: null })
    const set = overrideDue(state, june)
    expect(set).toMatchObject({ dueDate: june, overridden: true, computed: may })
    expect(overrideDue(set, null)).toMatchObject({ dueDate: may, overridden: false })
    expect(overrideDue(initialDue(noDeadline), null)).toMatchObject({ dueDate: null, overridden: false })
  })
})
