import { describe, expect, it } from "@effect/vitest"
import type { RaciRole } from "@tks/domain/duty"
import {
  ASSIGNED,
  compareRankKeys,
  type MasteryLevel,
  type QueueCandidate,
  type QueueRankKey,
  rankQueue
} from "@tks/domain/learning-queue"
import { type QueuePage, rankPage } from "@tks/domain/learning-queue-page"
import { mulberry32 } from "../src/mulberry32.js"

/**
 * A page cut from the learning queue by `rankPage` (a bounded selection
 * after the cursor) against the whole queue ranked by `rankQueue` and cut
 * after the cursor, as the queue was served before: the same entries in
 * the same order, the same keys, and the same total, for random queues,
 * every cursor a walk can hold, cursors of entries that have since moved,
 * and every page size.
 */

const day = 86_400_000
const now = Date.UTC(2026, 10, 23, 12, 0, 0)

/** A small deterministic generator (mulberry32), so a failure names its seed. */
const generator = (seed: number) => {
  const next = mulberry32(seed)
  const pick = <A>(values: ReadonlyArray<A>): A => values[Math.floor(next() * values.length)]!
  return { next, pick }
}

const MASTERY: ReadonlyArray<MasteryLevel> = ["NONE", "PARTIAL", "MASTERED"]
const EXPECTED: ReadonlyArray<MasteryLevel | null> = [null, "PARTIAL", "MASTERED"]
const RACI: ReadonlyArray<RaciRole | typeof ASSIGNED> = [ASSIGNED, "RESPONSIBLE", "ACCOUNTABLE", "CONSULTED", "INFORMED"]
// Few names, in several cases, so that names tie and only the id orders them; some beyond ASCII.
const NAMES = ["Audits", "audits", "AUDITS", "Billing", "billing", "Éclairage", "éclairage", "Zoning", "zeta", "Ωmega"]
const DUE = [null, null, now - 3 * day, now + 2 * day, now + 10 * day, now + 40 * day, now + 40 * day]

const randomQueue = (seed: number, size: number): Array<QueueCandidate> => {
  const { next, pick } = generator(seed)
  const candidates: Array<QueueCandidate> = []
  for (let i = 0; i < size; i++) {
    // Now and then the same id again (an owed lesson listed twice): equal keys keep their input order.
    const id = i > 0 && next() < 0.03 ? candidates[Math.floor(next() * i)]!.id : `id_${Math.floor(next() * size * 4)}`
    candidates.push({
      id,
      name: pick(NAMES),
      facts: { mastery: pick(MASTERY), expected: pick(EXPECTED), owed: next() < 0.3, retrainingDue: next() < 0.2, started: next() < 0.3 },
      raci: pick(RACI),
      required: next() < 0.3,
      dueAtMs: pick(DUE),
      blocked: next() < 0.3
    })
  }
  return candidates
}

/** The queue as served before: ranked whole (`all`, from `rankQueue`), then the `count` entries after the cursor's key. */
const wholeQueuePage = (all: ReturnType<typeof rankQueue<QueueCandidate>>, cursor: QueueRankKey | null, count: number) => {
  const from = cursor === null ? 0 : all.findIndex((entry) => compareRankKeys(entry.key, cursor) > 0)
  return { entries: from < 0 ? [] : all.slice(from, from + count), total: all.length }
}

/** A page as text: the total, then each entry as its position in the input (which candidate object), type, priority and key. */
const shape = (candidates: ReadonlyArray<QueueCandidate>, page: ReturnType<typeof wholeQueuePage>) =>
  JSON.stringify([page.total, ...page.entries.map((entry) => [candidates.indexOf(entry.candidate), entry.type, entry.priority, ...entry.key])])

describe("learning queue: a page ranked on its own", () => {
  it("walking the queue page by page gives the entries, keys and total of the whole ranked queue, for every page size", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const candidates = randomQueue(seed, 1 + (seed * 7) % 90)
      const all = rankQueue(candidates, now)
      for (const count of [1, 2, 3, 7, 50, 101]) {
        let cursor: QueueRankKey | null = null
        for (let pages = 0; pages < 200; pages++) {
          const page: QueuePage<QueueCandidate> = rankPage(candidates, now, cursor, count)
          expect(shape(candidates, page), `seed ${seed}, count ${count}, page ${pages}`).toBe(shape(candidates, wholeQueuePage(all, cursor, count)))
          const last = page.entries[page.entries.length - 1]
          if (page.entries.length < count || last === undefined) break
          cursor = last.key
        }
      }
    }
  })

  it("every entry's key as a cursor, and keys of entries that have since moved or gone, give the same page as the whole ranked queue", () => {
    for (let seed = 100; seed < 130; seed++) {
      const candidates = randomQueue(seed, 60)
      // Keys taken from another queue: a cursor from an earlier request whose entries have moved.
      const moved = rankQueue(randomQueue(seed + 1000, 30), now).map((entry) => entry.key)
      const all = rankQueue(candidates, now)
      const cursors = [null, ...all.map((entry) => entry.key), ...moved]
      for (const cursor of cursors) {
        for (const count of [1, 5, 51]) {
          expect(shape(candidates, rankPage(candidates, now, cursor, count)), `seed ${seed}, cursor ${JSON.stringify(cursor)}, count ${count}`)
            .toBe(shape(candidates, wholeQueuePage(all, cursor, count)))
        }
      }
    }
  })

  it("the total counts every entry that belongs in the queue, also past the last page and for an empty page", () => {
    const candidates = randomQueue(7, 40)
    const all = rankQueue(candidates, now)
    const total = all.length
    const last = all.at(-1)!.key
    expect(rankPage(candidates, now, last, 10)).toEqual({ entries: [], total })
    expect(rankPage(candidates, now, null, 0)).toEqual({ entries: [], total })
    expect(rankPage([], now, null, 10)).toEqual({ entries: [], total: 0 })
  })
})
