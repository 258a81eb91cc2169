import { Schema } from "effect"
import { Count } from "./common.js"
import type { RaciRole } from "./duty.js"

/**
 * The learning queue (docs/domain.md, The learning queue): what a
 * person should study next, recomputed on every request. This module holds
 * the rules as pure functions; core's SQL gathers the facts per topic and
 * ranks with the same key (`queueRankKey`), and tests hold the two together.
 *
 * Where entries come from:
 * - every topic the person holds a duty on (directly, through a team they
 *   are on, or through a company role they hold now at a tier the duty's
 *   qualifier reaches), a duty on a space or category reaching its topics
 *   and a duty on an item reaching the item's topic;
 * - every topic a lesson covers that the person has an active obligation
 *   for (assigned lessons and retraining), or whose retraining is due;
 * - every topic the person owes directly (a topic obligation, or an item
 *   obligation on one of its items).
 * A topic enters only when the reader can open it and a lesson covers it
 * that the reader can open or that the person owes (the entry needs a
 * lesson to start from); an owed lesson no topic readable by the reader
 * backs is listed on its own, by its title (topicId null).
 *
 * The type of an entry: NEW when the person has no mastery of the
 * topic; RETRAINING when they mastered it and it is due again (the
 * retraining interval of a lesson they completed on it has passed, or they
 * owe a lesson on it again); PARTIAL when they have some mastery and have
 * started a lesson on it that they have not finished (or owe one); DEEPEN
 * when their mastery is below what their duties expect. A topic at or above
 * the expectation with nothing owed and nothing due is not in the queue.
 */

export const QueueEntryType = Schema.Literal("NEW", "PARTIAL", "RETRAINING", "DEEPEN")
export type QueueEntryType = typeof QueueEntryType.Type

export const QueuePriority = Schema.Literal("HIGH", "MEDIUM", "LOW")
export type QueuePriority = typeof QueuePriority.Type

export type MasteryLevel = "NONE" | "PARTIAL" | "MASTERED"

const masteryRank: Record<MasteryLevel, number> = { NONE: 0, PARTIAL: 1, MASTERED: 2 }

/** The RACI value an entry reports when only an assignment (no duty) puts it in the queue. */
export const ASSIGNED = "ASSIGNED"

/** `roleName` of an entry whose strongest duty the person holds directly. */
export const PERSONAL_DUTY = "Personal duty"
/** `roleName` of an entry only an obligation puts in the queue. */
export const ASSIGNED_WORK = "Assigned"

export const masteryBelow = (mastery: MasteryLevel, expected: MasteryLevel | null): boolean =>
  expected !== null && masteryRank[mastery] < masteryRank[expected]

/**
 * The mastery a duty expects: MASTERED for RESPONSIBLE and
 * ACCOUNTABLE, PARTIAL for CONSULTED and INFORMED; a holder of the role above
 * the tier a MIN_TIER duty names (senior to the minimum it asks for) is
 * expected to master it whatever the RACI role.
 */
export const expectedMastery = (raci: RaciRole, seniorToQualifier: boolean): MasteryLevel =>
  raci === "RESPONSIBLE" || raci === "ACCOUNTABLE" || seniorToQualifier ? "MASTERED" : "PARTIAL"

/** What the queue knows about one topic (or one assigned lesson without a readable topic) for one person. */
export interface QueueFacts {
  readonly mastery: MasteryLevel
  /** The highest mastery any of the person's duties on the topic expects; null when no duty (assignment only). */
  readonly expected: MasteryLevel | null
  /** The person owes it: an active obligation for a lesson covering it, for the topic, or for one of its items. */
  readonly owed: boolean
  /** A lesson they completed on it has its retraining due now. */
  readonly retrainingDue: boolean
  /** They have an enrollment in progress on a lesson covering it. */
  readonly started: boolean
}

/**
 * The entry type for these facts, or null when the topic does not belong in
 * the queue. Whatever is owed is in the queue: a mastered topic owed again
 * (assigned again, or a retraining assigned) is due again, so RETRAINING.
 */
export const entryType = (facts: QueueFacts): QueueEntryType | null => {
  const below = masteryBelow(facts.mastery, facts.expected)
  if (facts.mastery === "NONE") return below || facts.owed ? "NEW" : null
  if (facts.mastery === "MASTERED") return facts.retrainingDue || facts.owed ? "RETRAINING" : null
  // PARTIAL
  if (facts.started) return "PARTIAL"
  if (below) return "DEEPEN"
  return facts.owed ? "PARTIAL" : null
}

export interface PriorityFacts {
  readonly type: QueueEntryType
  /** The strongest RACI role among the duties on it, or ASSIGNED. */
  readonly raci: RaciRole | typeof ASSIGNED
  readonly required: boolean
  /** Milliseconds from now until the due date (negative when overdue); null without a due date. */
  readonly dueInMs: number | null
}

const WEEK_MS = 7 * 86_400_000
const MONTH_MS = 30 * 86_400_000

/**
 * HIGH: overdue, due within a week, or a retraining that is due, or a
 * RESPONSIBLE/ACCOUNTABLE duty never learned. MEDIUM: due within a month,
 * any other required obligation, or any other RESPONSIBLE/ACCOUNTABLE duty.
 * LOW: the rest (consulted or informed duties to deepen, optional work).
 */
export const entryPriority = (facts: PriorityFacts): QueuePriority => {
  const accountable = facts.raci === "RESPONSIBLE" || facts.raci === "ACCOUNTABLE"
  if (facts.dueInMs !== null && facts.dueInMs <= WEEK_MS) return "HIGH"
  if (facts.type === "RETRAINING" || (accountable && facts.type === "NEW")) return "HIGH"
  if ((facts.dueInMs !== null && facts.dueInMs <= MONTH_MS) || facts.required || accountable) return "MEDIUM"
  return "LOW"
}

const priorityOrder: Record<QueuePriority, number> = { HIGH: 0, MEDIUM: 1, LOW: 2 }
const typeOrder: Record<QueueEntryType, number> = { RETRAINING: 0, NEW: 1, PARTIAL: 2, DEEPEN: 3 }
const raciOrder: Record<RaciRole | typeof ASSIGNED, number> = {
  ASSIGNED: 0,
  RESPONSIBLE: 1,
  ACCOUNTABLE: 2,
  CONSULTED: 3,
  INFORMED: 4
}

/**
 * The ranking, as a sort key compared element by element (ascending):
 * 1. priority (HIGH first);
 * 2. not blocked before blocked (what can be started now first);
 * 3. due date, earliest first, entries without one after every dated one;
 * 4. type: RETRAINING, NEW, PARTIAL, DEEPEN;
 * 5. RACI: assigned work, then RESPONSIBLE, ACCOUNTABLE, CONSULTED, INFORMED;
 * 6. topic name (lower-cased), then the entry's id, so the order is total.
 */
export type QueueRankKey = readonly [number, number, number, number, number, string, string]

export const NO_DUE_DATE = Number.MAX_SAFE_INTEGER

export const queueRankKey = (entry: {
  readonly priority: QueuePriority
  readonly blocked: boolean
  readonly dueAtMs: number | null
  readonly type: QueueEntryType
  readonly raci: RaciRole | typeof ASSIGNED
  readonly name: string
  readonly id: string
}): QueueRankKey => [
  priorityOrder[entry.priority],
  entry.blocked ? 1 : 0,
  entry.dueAtMs ?? NO_DUE_DATE,
  typeOrder[entry.type],
  raciOrder[entry.raci],
  entry.name.toLowerCase(),
  entry.id
]

export const compareRankKeys = (a: QueueRankKey, b: QueueRankKey): number => {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x < y) return -1
    if (x > y) return 1
  }
  return 0
}

/** A rank key as a cursor carries it: checked whole before it is compared (an unchecked cursor value once reached SQL as a cast error and a 500); it never reaches SQL. */
export const QueueRankKeySchema = Schema.Tuple(
  Schema.Int.pipe(Schema.between(0, 2)),
  Schema.Int.pipe(Schema.between(0, 1)),
  Schema.Int.pipe(Schema.between(-NO_DUE_DATE, NO_DUE_DATE)),
  Schema.Int.pipe(Schema.between(0, 3)),
  Schema.Int.pipe(Schema.between(0, 4)),
  Schema.String,
  Schema.String
)

/** One topic (or one owed lesson no readable topic backs) with what the queue knows about it for one person. */
export interface QueueCandidate {
  /** The topic's id, or the lesson's for a lesson listed on its own; unique within one queue. */
  readonly id: string
  readonly name: string
  readonly facts: QueueFacts
  readonly raci: RaciRole | typeof ASSIGNED
  readonly required: boolean
  /** The earliest due date of the active obligations on it, in epoch ms; null without one. */
  readonly dueAtMs: number | null
  readonly blocked: boolean
}

export interface RankedCandidate<C extends QueueCandidate> {
  readonly candidate: C
  readonly type: QueueEntryType
  readonly priority: QueuePriority
  readonly key: QueueRankKey
}

/** The queue: the candidates that belong in it, typed, prioritised and in rank order. */
export const rankQueue = <C extends QueueCandidate>(candidates: ReadonlyArray<C>, nowMs: number): Array<RankedCandidate<C>> => {
  const ranked: Array<RankedCandidate<C>> = []
  for (const candidate of candidates) {
    const type = entryType(candidate.facts)
    if (type === null) continue
    const priority = entryPriority({
      type,
      raci: candidate.raci,
      required: candidate.required,
      dueInMs: candidate.dueAtMs === null ? null : candidate.dueAtMs - nowMs
    })
    const key = queueRankKey({ ...candidate, priority, type })
    ranked.push({ candidate, type, priority, key })
  }
  return ranked.sort((a, b) => compareRankKeys(a.key, b.key))
}

/** One entry of a learning queue (docs/domain.md, The learning queue). */
export const LearningQueueEntry = Schema.Struct({
  topicId: Schema.NullOr(Schema.String),
  topicName: Schema.String,
  type: QueueEntryType,
  priority: QueuePriority,
  raciRole: Schema.String.annotations({
    description: "RESPONSIBLE, ACCOUNTABLE, CONSULTED or INFORMED from the person's strongest duty on the topic; ASSIGNED when only an assignment puts it here"
  }),
  roleName: Schema.String.annotations({
    description: "The company role (or team) the strongest duty comes through; \"Personal duty\" for a duty held directly; \"Assigned\" for assigned work"
  }),
  dueDate: Schema.NullOr(Schema.String),
  overdue: Schema.Boolean,
  lessonId: Schema.String,
  blocked: Schema.Boolean,
  blockingPrerequisiteName: Schema.NullOr(Schema.String),
  url: Schema.String
}).annotations({ identifier: "LearningQueueEntry" })
export type LearningQueueEntry = typeof LearningQueueEntry.Type

/** GET /v1/people/{id}/learning-queue: the person, then the page. */
export const PersonLearningQueue = Schema.Struct({
  user: Schema.Struct({ id: Schema.String, name: Schema.String, email: Schema.String }),
  data: Schema.Array(LearningQueueEntry),
  nextCursor: Schema.NullOr(Schema.String),
  total: Count
}).annotations({ identifier: "PersonLearningQueue" })
