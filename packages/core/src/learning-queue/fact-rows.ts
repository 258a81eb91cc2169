import type { RaciRole } from "@tks/domain/duty"
import { ASSIGNED, ASSIGNED_WORK, type MasteryLevel, PERSONAL_DUTY } from "@tks/domain/learning-queue"
import type { Candidate } from "./candidates.js"
import type { HeldAreaDuty, HeldDutyTopic, PersonQueueRow } from "./person-queue-repo.js"
import type { Prerequisite, TopicGraphSnapshot } from "./topic-graph.js"

/**
 * What the queue knows about one candidate entry (candidates.ts) and what
 * the entry shows: the facts of `QueueFacts` (@tks/domain/learning-queue),
 * the duty it comes through, the lesson to start from and the prerequisite
 * in the way. The service types, prioritises and ranks the candidates, and
 * builds these rows for the entries of the page.
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

/** A duty as both row shapes carry it from the RACI role on. */
type HeldDuty = HeldDutyTopic | HeldAreaDuty

const RACI_RANK: Record<RaciRole, number> = { RESPONSIBLE: 0, ACCOUNTABLE: 1, CONSULTED: 2, INFORMED: 3 }
const HOLDER_RANK = { role: 0, team: 1, person: 2 } as const

/** Text order of the "C" collation (UTF-8 bytes), which the queue's SQL ordered by before. */
export const compareC = (a: string, b: string): number => {
  if (a === b) return 0
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // Below the surrogates UTF-16 units sort as UTF-8 bytes do; past them, let the bytes decide.
    return x < 0xd800 && y < 0xd800 ? x - y : Buffer.compare(Buffer.from(a), Buffer.from(b))
  }
  return a.length - b.length
}

/** The duty an entry shows: R, A, C, I; then held through a role, a team, directly; then by name; then by id. */
const strongerDuty = (a: HeldDuty, b: HeldDuty): boolean =>
  (RACI_RANK[a[1]] - RACI_RANK[b[1]] || HOLDER_RANK[a[2]] - HOLDER_RANK[b[2]] || compareC(a[6], b[6]) || compareC(a[5], b[5])) < 0

/**
 * The duty each topic of `candidates` shows, the strongest of the person's
 * duties on it: those on the topic or its items, and those on its space or
 * category (whose spaces are listed with them).
 */
const strongestDuties = (graph: TopicGraphSnapshot, person: PersonQueueRow, candidates: ReadonlyArray<Candidate>) => {
  const strongest = new Map<string, HeldDuty | null>()
  const bySpace = new Map<string, Array<string>>()
  for (const candidate of candidates) {
    if (candidate.kind !== "topic" || candidate.raci === ASSIGNED) continue
    strongest.set(candidate.id, null)
    const spaceId = graph.topics.get(candidate.id)!.spaceId
    const topics = bySpace.get(spaceId)
    if (topics === undefined) bySpace.set(spaceId, [candidate.id])
    else topics.push(candidate.id)
  }
  const consider = (topicId: string, duty: HeldDuty) => {
    const held = strongest.get(topicId)
    if (held === null || (held !== undefined && strongerDuty(duty, held))) strongest.set(topicId, duty)
  }
  if (strongest.size > 0) {
    for (const duty of person.duties ?? []) consider(duty[0], duty)
    for (const duty of person.area_duties ?? []) {
      for (const spaceId of duty[0]) for (const topicId of bySpace.get(spaceId) ?? []) consider(topicId, duty)
    }
  }
  return strongest
}

/** The rows of `candidates`, in their order. */
export const factRows = (graph: TopicGraphSnapshot, person: PersonQueueRow, candidates: ReadonlyArray<Candidate>): Array<QueueFactRow> => {
  const mastery = person.mastery ?? {}
  const lessons = person.lessons ?? {}
  const strongest = strongestDuties(graph, person, candidates)
  // Object literals of one shape, no spread: on the page's path each row costs a few hundred nanoseconds, not microseconds.
  return candidates.map((candidate): QueueFactRow => {
    const dueDate = candidate.dueAtMs === null ? null : new Date(candidate.dueAtMs)
    if (candidate.kind === "lesson") {
      return {
        kind: "lesson",
        id: candidate.id,
        name: candidate.name,
        mastery: candidate.facts.mastery,
        raci: null,
        senior: false,
        holder_type: null,
        holder_name: null,
        owed: candidate.facts.owed,
        required: candidate.required,
        due_date: dueDate,
        started: candidate.facts.started,
        retraining_due: candidate.facts.retrainingDue,
        lesson_id: candidate.id,
        blocked: candidate.blocked,
        blocking_name: null
      }
    }
    const topic = graph.topics.get(candidate.id)!
    // The highest preference among the topic's lessons the person's rows list (candidates.ts made sure there is one).
    let preference = ""
    for (const lessonId of topic.lessonIds) {
      const listed = lessons[lessonId]
      if (listed !== undefined && listed > preference) preference = listed
    }
    // A prerequisite not mastered: the first by name the reader can open (its name), else another (no name).
    let blocking: Prerequisite | undefined
    let blockingReadable = false
    for (const p of topic.prerequisites) {
      if (!p.live || !(p.spaceId in person.spaces) || mastery[p.id] === "MASTERED") continue
      const readable = person.spaces[p.spaceId] === true
      const better = blocking === undefined ||
        (readable !== blockingReadable
          ? readable
          : (compareC(p.nameLower, blocking.nameLower) || compareC(p.id, blocking.id)) < 0)
      if (better) {
        blocking = p
        blockingReadable = readable
      }
    }
    const duty = strongest.get(candidate.id) ?? null
    return {
      kind: "topic",
      id: candidate.id,
      name: candidate.name,
      mastery: candidate.facts.mastery,
      raci: duty === null ? null : duty[1],
      senior: candidate.senior,
      holder_type: duty === null ? null : duty[2],
      holder_name: duty === null ? null : duty[3],
      owed: candidate.facts.owed,
      required: candidate.required,
      due_date: dueDate,
      started: candidate.facts.started,
      retraining_due: candidate.facts.retrainingDue,
      // The preference text ends with the lesson's id, after two flags and a 20-digit time.
      lesson_id: preference.slice(22),
      blocked: candidate.blocked,
      blocking_name: blocking !== undefined && blockingReadable ? blocking.name : null
    }
  })
}

/** The entry's `roleName`: the team or role the strongest duty is held through, a personal duty, or assigned work. */
export const roleNameOf = (row: QueueFactRow): string =>
  row.holder_type === null ? ASSIGNED_WORK : row.holder_type === "person" ? PERSONAL_DUTY : row.holder_name ?? ASSIGNED_WORK
