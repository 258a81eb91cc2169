import {
  entryPriority,
  entryType,
  NO_DUE_DATE,
  type QueueCandidate,
  type QueueEntryType,
  type QueuePriority,
  type QueueRankKey,
  type RankedCandidate
} from "./learning-queue.js"

/**
 * One page of the learning queue without ranking all of it: a page needs
 * the `count` entries that follow the cursor, and the queue's size. Each
 * candidate is typed and prioritised (that decides whether it belongs at
 * all), but only those after the cursor that beat the worst of the best
 * `count` so far are kept, in a bounded heap; the page is sorted at the end.
 * On a queue of 1,200 entries that is about 1,300 comparisons instead of a
 * sort's 12,000, and no rank key or lower-cased name for the entries that
 * never come near the page.
 *
 * The result is exactly what ranking the whole queue (`rankQueue`) and
 * cutting it after the cursor gives: the same comparisons, element by
 * element, as `compareRankKeys`, and candidates whose keys are equal keep
 * their input order, as the stable sort keeps them.
 */
export interface QueuePage<C extends QueueCandidate> {
  /** Up to `count` entries ranked right after the cursor (from the start without one), in rank order. */
  readonly entries: Array<RankedCandidate<C>>
  /** The size of the whole queue: every candidate that belongs in it, wherever the page is. */
  readonly total: number
}

const priorityOrder: Record<QueuePriority, number> = { HIGH: 0, MEDIUM: 1, LOW: 2 }
const typeOrder: Record<QueueEntryType, number> = { RETRAINING: 0, NEW: 1, PARTIAL: 2, DEEPEN: 3 }
const raciOrder: Record<QueueCandidate["raci"], number> = { ASSIGNED: 0, RESPONSIBLE: 1, ACCOUNTABLE: 2, CONSULTED: 3, INFORMED: 4 }

/** A candidate that belongs in the queue, with the numeric part of its rank key; the name is lower-cased when a tie needs it. */
interface Slot<C extends QueueCandidate> {
  readonly candidate: C
  readonly type: QueueEntryType
  readonly priority: QueuePriority
  readonly k0: number
  readonly k1: number
  readonly k2: number
  readonly k3: number
  readonly k4: number
  lower: string | undefined
  /** Position in the input: equal keys keep their input order. */
  readonly index: number
}

const lowerOf = (slot: Slot<QueueCandidate>): string => slot.lower ??= slot.candidate.name.toLowerCase()

/** As `compareRankKeys` compares each element: less, greater, else equal (so a NaN is equal to anything). */
const cmp = (x: number | string, y: number | string): number => x < y ? -1 : x > y ? 1 : 0

/** The rank order of two slots, input order breaking ties. */
const compareSlots = (a: Slot<QueueCandidate>, b: Slot<QueueCandidate>): number =>
  cmp(a.k0, b.k0) || cmp(a.k1, b.k1) || cmp(a.k2, b.k2) || cmp(a.k3, b.k3) || cmp(a.k4, b.k4) ||
  cmp(lowerOf(a), lowerOf(b)) || cmp(a.candidate.id, b.candidate.id) || a.index - b.index

/** Whether the slot ranks after the cursor's key (strictly: the entry the cursor names is not served again). */
const after = (slot: Slot<QueueCandidate>, key: QueueRankKey): boolean =>
  (cmp(slot.k0, key[0]) || cmp(slot.k1, key[1]) || cmp(slot.k2, key[2]) || cmp(slot.k3, key[3]) || cmp(slot.k4, key[4]) ||
    cmp(lowerOf(slot), key[5]) || cmp(slot.candidate.id, key[6])) > 0

/** Max-heap on `compareSlots`: the root is the worst entry kept. */
const siftDown = (heap: Array<Slot<QueueCandidate>>, from: number): void => {
  const size = heap.length
  const moving = heap[from]!
  let at = from
  for (;;) {
    const left = 2 * at + 1
    if (left >= size) break
    const right = left + 1
    const child = right < size && compareSlots(heap[right]!, heap[left]!) > 0 ? right : left
    if (compareSlots(heap[child]!, moving) <= 0) break
    heap[at] = heap[child]!
    at = child
  }
  heap[at] = moving
}

const siftUp = (heap: Array<Slot<QueueCandidate>>, from: number): void => {
  const moving = heap[from]!
  let at = from
  while (at > 0) {
    const parent = (at - 1) >> 1
    if (compareSlots(heap[parent]!, moving) >= 0) break
    heap[at] = heap[parent]!
    at = parent
  }
  heap[at] = moving
}

/** The `count` entries of the queue ranked right after `cursor` (null: from the start), and the queue's size. */
export const rankPage = <C extends QueueCandidate>(
  candidates: ReadonlyArray<C>,
  nowMs: number,
  cursor: QueueRankKey | null,
  count: number
): QueuePage<C> => {
  const heap: Array<Slot<C>> = []
  let total = 0
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index]!
    const type = entryType(candidate.facts)
    if (type === null) continue
    total++
    const priority = entryPriority({
      type,
      raci: candidate.raci,
      required: candidate.required,
      dueInMs: candidate.dueAtMs === null ? null : candidate.dueAtMs - nowMs
    })
    const slot: Slot<C> = {
      candidate,
      type,
      priority,
      k0: priorityOrder[priority],
      k1: candidate.blocked ? 1 : 0,
      k2: candidate.dueAtMs ?? NO_DUE_DATE,
      k3: typeOrder[type],
      k4: raciOrder[candidate.raci],
      lower: undefined,
      index
    }
    if (cursor !== null && !after(slot, cursor)) continue
    if (heap.length < count) {
      heap.push(slot)
      siftUp(heap, heap.length - 1)
    } else if (count > 0 && compareSlots(slot, heap[0]!) < 0) {
      heap[0] = slot
      siftDown(heap, 0)
    }
  }
  heap.sort(compareSlots)
  // The key as `queueRankKey` makes it, from the slot's parts (no spread of the candidate: that costs microseconds).
  const entries = heap.map((slot): RankedCandidate<C> => ({
    candidate: slot.candidate,
    type: slot.type,
    priority: slot.priority,
    key: [slot.k0, slot.k1, slot.k2, slot.k3, slot.k4, lowerOf(slot), slot.candidate.id]
  }))
  return { entries, total }
}
