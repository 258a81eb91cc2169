import { judge, type Verdict, windowStart } from "@tks/domain/rate-limit"
import type { CounterIncrement, CounterTotal } from "./repo.js"

interface Entry {
  readonly orgId: string
  readonly subject: string
  windowStart: number
  /** The shared count last read back from the database (this process's flushed units included). */
  cluster: number
  /** Sent by a flush still running. */
  inflight: number
  /** Granted here, not yet sent. */
  pending: number
}

/** What one flush sent, to settle when it answers. */
export type Batch = ReadonlyArray<CounterIncrement>

const keyOf = (orgId: string, subject: string) => `${orgId}\u0000${subject}`

/**
 * One process's view of a single-window rule (the default per-token limit):
 * calls are granted or refused here, from the last shared count read back
 * plus what this process counted since, with no database round trip; the
 * service flushes the local counts every second in one statement.
 *
 * Single-threaded by construction: every method is synchronous.
 */
export class LocalCounts {
  private readonly entries = new Map<string, Entry>()

  constructor(readonly rule: string, readonly seconds: number, readonly limit: number) {}

  hit(orgId: string, subject: string, nowMs: number): Verdict {
    const start = windowStart(nowMs, this.seconds)
    const key = keyOf(orgId, subject)
    let entry = this.entries.get(key)
    if (entry === undefined) {
      entry = { orgId, subject, windowStart: start, cluster: 0, inflight: 0, pending: 0 }
      this.entries.set(key, entry)
    } else if (start > entry.windowStart) {
      // A new window: what was counted in the last one no longer matters.
      entry.windowStart = start
      entry.cluster = 0
      entry.inflight = 0
      entry.pending = 0
    }
    const used = entry.cluster + entry.inflight + entry.pending
    // A clock step back near a boundary leaves the entry in the next window; judge by the entry's.
    const verdict = judge([{ seconds: this.seconds, limit: this.limit, used }], 1, Math.max(nowMs, entry.windowStart * 1000))
    if (verdict._tag === "Granted") entry.pending += 1
    return verdict
  }

  /** Moves every pending count into a batch to send, forgetting entries whose window has ended. */
  takeBatch(nowMs: number): Batch {
    const current = windowStart(nowMs, this.seconds)
    const batch: Array<CounterIncrement> = []
    for (const [key, entry] of this.entries) {
      if (entry.windowStart < current) {
        this.entries.delete(key)
      } else if (entry.pending > 0) {
        batch.push({
          orgId: entry.orgId,
          rule: this.rule,
          subject: entry.subject,
          seconds: this.seconds,
          windowStart: entry.windowStart,
          count: entry.pending
        })
        entry.inflight += entry.pending
        entry.pending = 0
      }
    }
    return batch
  }

  /** The flush landed: the shared totals read back replace what was in flight. */
  settle(batch: Batch, totals: ReadonlyArray<CounterTotal>) {
    for (const sent of batch) {
      const entry = this.sameWindow(sent)
      if (entry !== undefined) entry.inflight -= sent.count
    }
    for (const total of totals) {
      const entry = this.entries.get(keyOf(total.orgId, total.subject))
      // Counts only grow within a window; a late answer must not lower them.
      if (entry !== undefined && entry.windowStart === total.windowStart) entry.cluster = Math.max(entry.cluster, total.hits)
    }
  }

  /** The flush failed: its counts are sent again next time. */
  restore(batch: Batch) {
    for (const sent of batch) {
      const entry = this.sameWindow(sent)
      if (entry !== undefined) {
        entry.inflight -= sent.count
        entry.pending += sent.count
      }
    }
  }

  private sameWindow(sent: CounterIncrement) {
    const entry = this.entries.get(keyOf(sent.orgId, sent.subject))
    return entry !== undefined && entry.windowStart === sent.windowStart ? entry : undefined
  }
}
