import { describe, expect, it } from "@effect/vitest"
import { LocalCounts } from "../src/rate-limits/local-counts.js"
import { defineRule } from "../src/rate-limits/rules.js"

// 10:00:00 UTC, the start of a minute.
const t0 = Date.UTC(2026, 10, 23, 10, 0, 0)
const org = "org_local"

const hits = (counts: LocalCounts, n: number, at: number, subject = "tok_1") =>
  Array.from({ length: n }, () => counts.hit(org, subject, at))

describe("LocalCounts (the default limit, decided in process)", () => {
  it("alone it grants exactly the limit in a window, then refuses until the window ends", () => {
    const counts = new LocalCounts("requests", 60, 3)
    const verdicts = hits(counts, 4, t0 + 15_500)
    expect(verdicts.slice(0, 3).map((v) => v._tag === "Granted" && v.decision.remaining)).toEqual([2, 1, 0])
    expect(verdicts[3]).toEqual({ _tag: "Refused", limit: 3, retryAfterSeconds: 45 })
    // Refusals are not counted: the next window starts from zero.
    expect(counts.hit(org, "tok_1", t0 + 60_000)).toEqual({
      _tag: "Granted",
      decision: { limit: 3, remaining: 2, resetSeconds: 60 }
    })
  })

  it("counts each token apart", () => {
    const counts = new LocalCounts("requests", 60, 1)
    expect(counts.hit(org, "tok_1", t0)._tag).toBe("Granted")
    expect(counts.hit(org, "tok_2", t0)._tag).toBe("Granted")
    expect(counts.hit("org_other", "tok_1", t0)._tag).toBe("Granted")
    expect(counts.hit(org, "tok_1", t0)._tag).toBe("Refused")
  })

  it("a flush sends the pending counts once; the shared total read back counts against the limit", () => {
    const counts = new LocalCounts("requests", 60, 10)
    hits(counts, 4, t0 + 1000)
    const batch = counts.takeBatch(t0 + 1500)
    expect(batch).toEqual([{ orgId: org, rule: "requests", subject: "tok_1", seconds: 60, windowStart: t0 / 1000, count: 4 }])
    expect(counts.takeBatch(t0 + 1600)).toEqual([])
    // Another process had counted 5 in the same window.
    counts.settle(batch, [{ orgId: org, rule: "requests", subject: "tok_1", windowStart: t0 / 1000, hits: 9, nowMs: t0 + 1550 }])
    expect(hits(counts, 2, t0 + 2000).map((v) => v._tag)).toEqual(["Granted", "Refused"])
  })

  it("calls granted while a flush is in flight still count, and are sent by the next flush", () => {
    const counts = new LocalCounts("requests", 60, 5)
    hits(counts, 2, t0)
    const batch = counts.takeBatch(t0)
    hits(counts, 2, t0 + 10)
    counts.settle(batch, [{ orgId: org, rule: "requests", subject: "tok_1", windowStart: t0 / 1000, hits: 2, nowMs: t0 }])
    expect(counts.takeBatch(t0 + 20).map((i) => i.count)).toEqual([2])
    expect(hits(counts, 2, t0 + 30).map((v) => v._tag)).toEqual(["Granted", "Refused"])
  })

  it("a failed flush keeps its counts: they still count and are sent again", () => {
    const counts = new LocalCounts("requests", 60, 3)
    hits(counts, 3, t0)
    const batch = counts.takeBatch(t0)
    counts.restore(batch)
    expect(counts.hit(org, "tok_1", t0)._tag).toBe("Refused")
    expect(counts.takeBatch(t0).map((i) => i.count)).toEqual([3])
  })

  it("a total read back for a window that has since ended does not count in the new one", () => {
    const counts = new LocalCounts("requests", 60, 3)
    hits(counts, 3, t0 + 59_900)
    const batch = counts.takeBatch(t0 + 59_900)
    expect(counts.hit(org, "tok_1", t0 + 60_100)._tag).toBe("Granted")
    counts.settle(batch, [{ orgId: org, rule: "requests", subject: "tok_1", windowStart: t0 / 1000, hits: 50, nowMs: t0 + 60_000 }])
    expect(hits(counts, 2, t0 + 60_200).map((v) => v._tag)).toEqual(["Granted", "Granted"])
  })

  it("entries of ended windows are forgotten at the next flush", () => {
    const counts = new LocalCounts("requests", 60, 3)
    hits(counts, 2, t0)
    expect(counts.takeBatch(t0 + 61_000)).toEqual([])
    expect(counts.hit(org, "tok_1", t0 + 61_000)).toMatchObject({ decision: { remaining: 2 } })
  })
})

describe("defineRule", () => {
  it("refuses windows that do not nest, and malformed names or limits", () => {
    expect(() => defineRule({ name: "odd", windows: [{ seconds: 60, limit: 1 }, { seconds: 90, limit: 2 }] })).toThrow(/multiple/)
    expect(() => defineRule({ name: "Bad Name", windows: [{ seconds: 60, limit: 1 }] })).toThrow(/name/)
    expect(() => defineRule({ name: "zero", windows: [{ seconds: 60, limit: 0 }] })).toThrow(/positive/)
    expect(() => defineRule({ name: "none", windows: [] })).toThrow(/window/)
  })
})
