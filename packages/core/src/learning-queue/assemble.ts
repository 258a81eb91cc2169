import type { RaciRole } from "@tks/domain/duty"
import type { MasteryLevel } from "@tks/domain/learning-queue"
import type { HeldDutyTopic, PersonQueueRow } from "./queue-sql.js"
import type { TopicGraphSnapshot } from "./topic-graph.js"

/**
 * What the queue knows about one candidate entry: a topic (`kind` topic),
 * or a lesson the person owes that no topic readable by the reader backs
 * (`kind` lesson). The facts of `QueueFacts` (@tks/domain/learning-queue)
 * and what the entry shows; the service types, prioritises and ranks them.
 */
export interface QueueFactRow {
  readonly kind: "topic" | "lesson"
  readonly id: string
  readonly name: string
  readonly mastery: MasteryLevel
  /** The strongest RACI role among the person's duties on it (R, A, C, I); null without a duty. */
  readonly raci: RaciRole | null
  /** Some duty on it is held through a role at a tier senior to a MIN_TIER qualifier. */
  readonly senior: boolean
  /** How the strongest duty is held, and the team's or role's name. */
  readonly holder_type: "person" | "team" | "role" | null
  readonly holder_name: string | null
  readonly owed: boolean
  readonly required: boolean
  readonly due_date: Date | null
  readonly started: boolean
  readonly retraining_due: boolean
  readonly lesson_id: string
  readonly blocked: boolean
  readonly blocking_name: string | null
}

const RACI_RANK: Record<RaciRole, number> = { RESPONSIBLE: 0, ACCOUNTABLE: 1, CONSULTED: 2, INFORMED: 3 }
const HOLDER_RANK = { role: 0, team: 1, person: 2 } as const
const MASTERY_RANK: Record<MasteryLevel, number> = { NONE: 0, PARTIAL: 1, MASTERED: 2 }
const MASTERY_OF_RANK: ReadonlyArray<MasteryLevel> = ["NONE", "PARTIAL", "MASTERED"]

/** Text order of the "C" collation (UTF-8 bytes), which the queue's SQL ordered by before. */
const compareC = (a: string, b: string): number => a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b))

/** The duty an entry shows: R, A, C, I; then held through a role, a team, directly; then by name; then by id. */
const strongerDuty = (a: HeldDutyTopic, b: HeldDutyTopic): boolean =>
  (RACI_RANK[a[1]] - RACI_RANK[b[1]] || HOLDER_RANK[a[2]] - HOLDER_RANK[b[2]] || compareC(a[6], b[6]) || compareC(a[5], b[5])) < 0

interface Owed {
  required: boolean
  due: Date | null
}

const owe = (owed: Map<string, Owed>, topicId: string, required: boolean, due: string | null) => {
  const date = due === null ? null : new Date(due)
  const held = owed.get(topicId)
  if (held === undefined) owed.set(topicId, { required, due: date })
  else {
    held.required ||= required
    if (date !== null && (held.due === null || date < held.due)) held.due = date
  }
}

/**
 * Every candidate entry of a person's queue, from their own rows
 * (queue-sql.ts) and their organization's topic graph (topic-graph.ts):
 *
 * - Sources: the live topics the person's duties reach; the live topics
 *   covered by a lesson they owe or must retake; the topics they owe (topic
 *   obligations, and item obligations through the item's topic).
 * - Only topics the reader can open (SPEC 4.5 rule 2: live, in a live space
 *   the reader can read), each with a lesson to start from (the person's
 *   rows rank them; the highest covering the topic is taken).
 * - A lesson the person owes that no such topic backs is its own candidate,
 *   by its title; its mastery is the lowest of the topics it covers.
 * - Blocked: a live prerequisite topic (in a live space) the person has not
 *   MASTERED; its name is the first by name among those the reader can open.
 */
export const assembleQueue = (graph: TopicGraphSnapshot, person: PersonQueueRow): ReadonlyArray<QueueFactRow> => {
  const mastery = person.mastery ?? {}
  const masteryOf = (topicId: string): MasteryLevel => mastery[topicId] ?? "NONE"
  const lessons = person.lessons ?? {}
  const topicsOf = (lessonId: string) => graph.lessonTopics.get(lessonId) ?? []
  const obligations = person.obligations ?? []
  const retraining = new Set(person.retraining ?? [])
  const owedLessons = obligations.filter(([type]) => type === "lesson")

  const reached = new Set<string>()
  const strongest = new Map<string, HeldDutyTopic>()
  const senior = new Set<string>()
  for (const duty of person.duties ?? []) {
    const topicId = duty[0]
    reached.add(topicId)
    const held = strongest.get(topicId)
    if (held === undefined || strongerDuty(duty, held)) strongest.set(topicId, duty)
    if (duty[4]) senior.add(topicId)
  }

  const owed = new Map<string, Owed>()
  for (const [, lessonId, required, due] of owedLessons) {
    for (const topicId of topicsOf(lessonId)) {
      reached.add(topicId)
      owe(owed, topicId, required, due)
    }
  }
  const retrainingTopics = new Set<string>()
  for (const lessonId of retraining) {
    for (const topicId of topicsOf(lessonId)) {
      reached.add(topicId)
      retrainingTopics.add(topicId)
    }
  }
  for (const [type, topicId, required, due] of obligations) {
    if (type !== "topic") continue
    reached.add(topicId)
    owe(owed, topicId, required, due)
  }
  const itemTopics = new Map(person.owed_items ?? [])
  for (const [type, itemId, required, due] of obligations) {
    const topicId = type === "item" ? itemTopics.get(itemId) : undefined
    if (topicId === undefined) continue
    reached.add(topicId)
    owe(owed, topicId, required, due)
  }
  const started = new Set<string>()
  for (const lessonId of person.started ?? []) for (const topicId of topicsOf(lessonId)) started.add(topicId)

  const rows: Array<QueueFactRow> = []
  const candidates = new Set<string>()
  for (const topicId of reached) {
    const topic = graph.topics.get(topicId)
    if (topic === undefined || !topic.live || person.spaces[topic.spaceId] !== true) continue
    candidates.add(topicId)
    let preference: string | undefined
    for (const lessonId of topic.lessonIds) {
      const candidate = lessons[lessonId]
      if (candidate !== undefined && (preference === undefined || candidate > preference)) preference = candidate
    }
    if (preference === undefined) continue
    // A prerequisite not mastered: the first by name the reader can open (its name), else another (no name).
    let blocking: { readable: boolean; lower: string; id: string; name: string } | undefined
    for (const p of topic.prerequisites) {
      if (!p.live || !(p.spaceId in person.spaces) || mastery[p.id] === "MASTERED") continue
      const readable = person.spaces[p.spaceId] === true
      const better = blocking === undefined ||
        (readable !== blocking.readable
          ? readable
          : (compareC(p.nameLower, blocking.lower) || compareC(p.id, blocking.id)) < 0)
      if (better) blocking = { readable, lower: p.nameLower, id: p.id, name: p.name }
    }
    const duty = strongest.get(topicId)
    const debt = owed.get(topicId)
    rows.push({
      kind: "topic",
      id: topicId,
      name: topic.name,
      mastery: masteryOf(topicId),
      raci: duty?.[1] ?? null,
      senior: senior.has(topicId),
      holder_type: duty?.[2] ?? null,
      holder_name: duty?.[3] ?? null,
      owed: debt !== undefined,
      required: debt?.required ?? false,
      due_date: debt?.due ?? null,
      started: started.has(topicId),
      retraining_due: retrainingTopics.has(topicId),
      // The preference text ends with the lesson's id, after two flags and a 20-digit time.
      lesson_id: preference.slice(22),
      blocked: blocking !== undefined,
      blocking_name: blocking?.readable === true ? blocking.name : null
    })
  }

  const titles = person.owed_lessons ?? {}
  const startedLessons = new Set(person.started ?? [])
  for (const [, lessonId, required, due] of owedLessons) {
    const title = titles[lessonId]
    const covered = topicsOf(lessonId)
    if (title === undefined || covered.some((topicId) => candidates.has(topicId))) continue
    rows.push({
      kind: "lesson",
      id: lessonId,
      name: title,
      mastery: covered.length === 0 ? "NONE" : MASTERY_OF_RANK[Math.min(...covered.map((topicId) => MASTERY_RANK[masteryOf(topicId)]))]!,
      raci: null,
      senior: false,
      holder_type: null,
      holder_name: null,
      owed: true,
      required,
      due_date: due === null ? null : new Date(due),
      started: startedLessons.has(lessonId),
      retraining_due: retraining.has(lessonId),
      lesson_id: lessonId,
      blocked: false,
      blocking_name: null
    })
  }
  return rows
}
