import type { RaciRole } from "@tks/domain/duty"
import { ASSIGNED, expectedMastery, type MasteryLevel, type QueueCandidate } from "@tks/domain/learning-queue"
import type { PersonQueueRow } from "./person-queue-repo.js"
import { type Prerequisite, type TopicGraphSnapshot, topicsInSpace } from "./topic-graph.js"

/**
 * One candidate entry of a person's queue with what ranking needs: a topic
 * (`kind` topic) or a lesson they owe that no topic readable by the reader
 * backs (`kind` lesson). What the entry shows beyond that (the duty it
 * comes through, the lesson to start from, the prerequisite in the way) is
 * worked out for the entries of the page only (fact-rows.ts).
 */
export interface Candidate extends QueueCandidate {
  readonly kind: "topic" | "lesson"
  /** Some duty on it is held through a role at a tier senior to a MIN_TIER qualifier. */
  readonly senior: boolean
}

const RACI_RANK: Record<RaciRole, number> = { RESPONSIBLE: 0, ACCOUNTABLE: 1, CONSULTED: 2, INFORMED: 3 }
const RACI_OF_RANK: ReadonlyArray<RaciRole> = ["RESPONSIBLE", "ACCOUNTABLE", "CONSULTED", "INFORMED"]
const MASTERY_RANK: Record<MasteryLevel, number> = { NONE: 0, PARTIAL: 1, MASTERED: 2 }
const MASTERY_OF_RANK: ReadonlyArray<MasteryLevel> = ["NONE", "PARTIAL", "MASTERED"]
const NONE: ReadonlyArray<string> = []

/** What reaches one topic, gathered from every source before the topic is looked at. */
interface Reach {
  /** The strongest RACI role among the duties on it (RACI_RANK), or NO_DUTY. */
  raciRank: number
  senior: boolean
  owed: boolean
  required: boolean
  dueAtMs: number | null
  retrainingDue: boolean
  started: boolean
  /** The reader can open it (live, in a live space they can read). */
  readable: boolean
}

const NO_DUTY = 4

const reachOf = (reached: Map<string, Reach>, topicId: string): Reach => {
  let reach = reached.get(topicId)
  if (reach === undefined) {
    reach = { raciRank: NO_DUTY, senior: false, owed: false, required: false, dueAtMs: null, retrainingDue: false, started: false, readable: false }
    reached.set(topicId, reach)
  }
  return reach
}

const hold = (reach: Reach, raci: RaciRole, seniorToQualifier: boolean) => {
  const rank = RACI_RANK[raci]
  if (rank < reach.raciRank) reach.raciRank = rank
  if (seniorToQualifier) reach.senior = true
}

/** Owed: required if any obligation is; due at the earliest date. */
const owe = (reach: Reach, required: boolean, due: string | null) => {
  const dueAtMs = due === null ? null : Date.parse(due)
  if (!reach.owed) {
    reach.owed = true
    reach.required = required
    reach.dueAtMs = dueAtMs
  } else {
    reach.required ||= required
    if (dueAtMs !== null && (reach.dueAtMs === null || dueAtMs < reach.dueAtMs)) reach.dueAtMs = dueAtMs
  }
}

/** Whether some of `lessonIds` is listed (the person's rows list the lessons an entry may start from). */
const anyListed = (lessonIds: ReadonlyArray<string>, listed: Readonly<Record<string, string>>): boolean => {
  for (const lessonId of lessonIds) if (listed[lessonId] !== undefined) return true
  return false
}

/** Whether a live prerequisite in a live space is not MASTERED (whether or not the reader can open it). */
const blocked = (
  prerequisites: ReadonlyArray<Prerequisite>,
  spaces: Readonly<Record<string, boolean>>,
  mastery: Readonly<Record<string, MasteryLevel>>
): boolean => {
  for (const p of prerequisites) if (p.live && p.spaceId in spaces && mastery[p.id] !== "MASTERED") return true
  return false
}

/**
 * Every candidate entry of a person's queue, from their own rows
 * (person-queue-repo.ts) and their organization's topic graph (topic-graph.ts):
 *
 * - Sources: the live topics the person's duties reach (a duty on a space
 *   or a category through the spaces' topics in the graph); the live topics
 *   covered by a lesson they owe or must retake; the topics they owe (topic
 *   obligations, and item obligations through the item's topic).
 * - Only topics the reader can open (live, in a live space the reader can
 *   read), each with a lesson to start from.
 * - A lesson the person owes that no such topic backs is its own candidate,
 *   by its title; its mastery is the lowest of the topics it covers.
 * - The RACI role is the strongest among the duties on the topic (R, A, C,
 *   I); blocked: a live prerequisite topic (in a live space) the person has
 *   not MASTERED.
 */
export const queueCandidates = (graph: TopicGraphSnapshot, person: PersonQueueRow): Array<Candidate> => {
  const mastery = person.mastery ?? {}
  const masteryOf = (topicId: string): MasteryLevel => mastery[topicId] ?? "NONE"
  const lessons = person.lessons ?? {}
  const topicsOf = (lessonId: string) => graph.lessonTopics.get(lessonId) ?? NONE
  const obligations = person.obligations ?? []
  const retraining = new Set(person.retraining ?? [])

  // One record per topic reached, in the order first reached; one lookup per source row, none per fact.
  const reached = new Map<string, Reach>()
  for (const duty of person.duties ?? []) hold(reachOf(reached, duty[0]), duty[1], duty[4])
  for (const duty of person.area_duties ?? []) {
    for (const spaceId of duty[0]) for (const topicId of topicsInSpace(graph, spaceId)) hold(reachOf(reached, topicId), duty[1], duty[4])
  }
  for (const [type, lessonId, required, due] of obligations) {
    if (type !== "lesson") continue
    for (const topicId of topicsOf(lessonId)) owe(reachOf(reached, topicId), required, due)
  }
  for (const lessonId of retraining) for (const topicId of topicsOf(lessonId)) reachOf(reached, topicId).retrainingDue = true
  for (const [type, topicId, required, due] of obligations) if (type === "topic") owe(reachOf(reached, topicId), required, due)
  const itemTopics = new Map(person.owed_items ?? [])
  for (const [type, itemId, required, due] of obligations) {
    const topicId = type === "item" ? itemTopics.get(itemId) : undefined
    if (topicId !== undefined) owe(reachOf(reached, topicId), required, due)
  }
  for (const lessonId of person.started ?? []) {
    for (const topicId of topicsOf(lessonId)) {
      const reach = reached.get(topicId)
      if (reach !== undefined) reach.started = true
    }
  }

  const candidates: Array<Candidate> = []
  for (const [topicId, reach] of reached) {
    const topic = graph.topics.get(topicId)
    if (topic === undefined || !topic.live || person.spaces[topic.spaceId] !== true) continue
    reach.readable = true
    if (!anyListed(topic.lessonIds, lessons)) continue
    const raci = reach.raciRank === NO_DUTY ? null : RACI_OF_RANK[reach.raciRank]!
    candidates.push({
      kind: "topic",
      id: topicId,
      name: topic.name,
      facts: {
        mastery: masteryOf(topicId),
        expected: raci === null ? null : expectedMastery(raci, reach.senior),
        owed: reach.owed,
        retrainingDue: reach.retrainingDue,
        started: reach.started
      },
      raci: raci ?? ASSIGNED,
      senior: reach.senior,
      required: reach.required,
      dueAtMs: reach.dueAtMs,
      blocked: blocked(topic.prerequisites, person.spaces, mastery)
    })
  }

  const titles = person.owed_lessons ?? {}
  const startedLessons = new Set(person.started ?? [])
  for (const [type, lessonId, required, due] of obligations) {
    if (type !== "lesson") continue
    const title = titles[lessonId]
    const covered = topicsOf(lessonId)
    if (title === undefined || covered.some((topicId) => reached.get(topicId)?.readable === true)) continue
    candidates.push({
      kind: "lesson",
      id: lessonId,
      name: title,
      facts: {
        mastery: covered.length === 0 ? "NONE" : MASTERY_OF_RANK[Math.min(...covered.map((topicId) => MASTERY_RANK[masteryOf(topicId)]))]!,
        expected: null,
        owed: true,
        retrainingDue: retraining.has(lessonId),
        started: startedLessons.has(lessonId)
      },
      raci: ASSIGNED,
      senior: false,
      required,
      dueAtMs: due === null ? null : Date.parse(due),
      blocked: false
    })
  }
  return candidates
}
