/**
 * When a webhook delivery is tried again (docs/webhooks.md): after 5 s,
 * 5 min, 30 min, 2 h, 5 h, then every 10 h, as multiples of the workers'
 * base wait (WORKER_RETRY_BASE_MS, 5 s by default, which tests shorten).
 * An endpoint that is down for a while loses nothing, and one that is gone
 * is not hammered.
 */
const multiples: ReadonlyArray<number> = [1, 60, 360, 1_440, 3_600]
const LATER = 7_200

/** The wait before attempt `attempt + 1`. */
export const webhookRetryInMs = (attempt: number, baseMs: number): number => baseMs * (multiples[attempt - 1] ?? LATER)

/** When attempt `attempt` starts, counted from the first one. */
export const webhookAttemptAtMs = (attempt: number, baseMs: number): number => {
  let at = 0
  for (let before = 1; before < attempt; before++) at += webhookRetryInMs(before, baseMs)
  return at
}

/**
 * A delivery is tried this many times: every attempt the schedule starts
 * within 3 days of the first (at the default base; the schedule scales
 * with it), the last about 67.5 hours after the first.
 */
export const WEBHOOK_DELIVERY_ATTEMPTS = 12
