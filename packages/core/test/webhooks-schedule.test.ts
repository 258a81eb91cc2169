import { describe, expect, it } from "@effect/vitest"
import { webhookAttemptAtMs, webhookRetryInMs, WEBHOOK_DELIVERY_ATTEMPTS } from "../src/webhooks/schedule.js"

const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

describe("the webhook retry schedule", () => {
  it("with the default base (5 s) a delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h", () => {
    const waits = Array.from({ length: 8 }, (_, i) => webhookRetryInMs(i + 1, 5 * SECOND))
    expect(waits).toEqual([5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR])
  })

  it("it is tried until 3 days after its first attempt: the last attempt within them, no further one planned past them", () => {
    const last = webhookAttemptAtMs(WEBHOOK_DELIVERY_ATTEMPTS, 5 * SECOND)
    expect(last).toBeLessThanOrEqual(72 * HOUR)
    expect(last + webhookRetryInMs(WEBHOOK_DELIVERY_ATTEMPTS, 5 * SECOND)).toBeGreaterThan(72 * HOUR)
  })

  it("the schedule scales with the base, so tests can shorten it", () => {
    expect(webhookRetryInMs(1, 1)).toBe(1)
    expect(webhookRetryInMs(2, 1)).toBe(60)
    expect(webhookAttemptAtMs(WEBHOOK_DELIVERY_ATTEMPTS, 5)).toBe(webhookAttemptAtMs(WEBHOOK_DELIVERY_ATTEMPTS, 5 * SECOND) / 1_000)
  })
})
