import { describe, expect, it } from "@effect/vitest"
import { judge, secondsUntilReset, windowStart } from "@tks/domain/rate-limit"

const minute = Date.UTC(2026, 10, 23, 10, 7, 0)

describe("rate-limit windows", () => {
  it("windows are aligned to the epoch: a minute window starts on the whole minute", () => {
    expect(windowStart(minute + 59_999, 60)).toBe(minute / 1000)
    expect(windowStart(minute + 60_000, 60)).toBe(minute / 1000 + 60)
    expect(windowStart(minute + 1234, 3600)).toBe(Date.UTC(2026, 10, 23, 10, 0, 0) / 1000)
  })

  it("the seconds until reset are whole, rounded up, and at least 1", () => {
    expect(secondsUntilReset(minute, 60)).toBe(60)
    expect(secondsUntilReset(minute + 500, 60)).toBe(60)
    expect(secondsUntilReset(minute + 58_001, 60)).toBe(2)
    expect(secondsUntilReset(minute + 59_999, 60)).toBe(1)
  })
})

describe("judge", () => {
  const at = minute + 30_000

  it("grants when every window has room, reporting the one closest to running out", () => {
    expect(judge([{ seconds: 60, limit: 3, used: 0 }, { seconds: 3600, limit: 20, used: 18 }], 1, at)).toEqual({
      _tag: "Granted",
      decision: { limit: 20, remaining: 1, resetSeconds: 3600 - 7 * 60 - 30 }
    })
  })

  it("refuses when one window would overflow, with that window's limit and reset", () => {
    expect(judge([{ seconds: 60, limit: 3, used: 3 }, { seconds: 3600, limit: 20, used: 5 }], 1, at)).toEqual({
      _tag: "Refused",
      limit: 3,
      retryAfterSeconds: 30
    })
  })

  it("with several windows full, Retry-After is the one that frees up last", () => {
    expect(judge([{ seconds: 60, limit: 3, used: 3 }, { seconds: 3600, limit: 20, used: 20 }], 1, at)).toMatchObject({
      limit: 20,
      retryAfterSeconds: 3600 - 7 * 60 - 30
    })
  })

  it("a cost counts whole: it fits only if all of it fits", () => {
    expect(judge([{ seconds: 60, limit: 10, used: 7 }], 3, at)._tag).toBe("Granted")
    expect(judge([{ seconds: 60, limit: 10, used: 7 }], 4, at)._tag).toBe("Refused")
  })
})
