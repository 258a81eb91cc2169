import { describe, expect, it } from "@effect/vitest"
import { assembleQueue, type QueueFactRow } from "@tks/core/learning-queue/assemble"
import { type Candidate, queueCandidates } from "@tks/core/learning-queue/candidates"
import { compareC, factRows } from "@tks/core/learning-queue/fact-rows"
import type { HeldAreaDuty, HeldDutyTopic, OwedItem, PersonQueueRow } from "@tks/core/learning-queue/person-queue-repo"
import type { Prerequisite, TopicGraphSnapshot, TopicNode } from "@tks/core/learning-queue/topic-graph"
import type { RaciRole } from "@tks/domain/duty"
import {
  ASSIGNED,
  compareRankKeys,
  expectedMastery,
  type MasteryLevel,
  type QueueCandidate,
  type QueueRankKey,
  rankQueue
} from "@tks/domain/learning-queue"
import { type QueuePage, rankPage } from "@tks/domain/learning-queue-page"
import { mulberry32 } from "@tks/domain/mulberry32"

/**
 * The learning queue as the service serves a page (learning-queue/service.ts):
 * the candidates ranked for the page alone (`rankPage`), rows made for the
 * page's entries only, duties on spaces and categories reaching their
 * topics through the topic graph. Against it, on random organizations: the
 * whole queue with every row, ranked whole (`rankQueue`) and cut after the
 * cursor, with every duty listed per topic, as the statement listed them
 * before.
 */

const now = Date.UTC(2026, 10, 23, 12, 0, 0)

const generator = (seed: number) => {
  const next = mulberry32(seed)
  const int = (n: number) => Math.floor(next() * n)
  const pick = <A>(values: ReadonlyArray<A>): A => values[int(values.length)]!
  const some = <A>(values: ReadonlyArray<A>, p: number): Array<A> => values.filter(() => next() < p)
  return { next, int, pick, some }
}

const RACI: ReadonlyArray<RaciRole> = ["RESPONSIBLE", "ACCOUNTABLE", "CONSULTED", "INFORMED"]
const MASTERY: ReadonlyArray<MasteryLevel> = ["NONE", "PARTIAL", "MASTERED"]
// Names that tie without regard to case, and some beyond ASCII, so that every tie-break is reached.
const NAMES = ["Alpha", "alpha", "ALPHA", "Beta", "Ärger", "ärger", "Zoë", "zoe", "日本", "𝒜stral"]
const DUE = [null, "2026-11-20T00:00:00+00:00", "2026-11-25T12:00:00+00:00", "2026-12-10T00:00:00+00:00", "2027-02-01T00:00:00+00:00"]

/** A random organization's topic graph and one person's rows: the duties on spaces and categories given both ways. */
const randomCase = (seed: number) => {
  const { int, next, pick, some } = generator(seed)
  const spaceIds = ["s0", "s1", "s2", "s3", "s4", "s5"]
  // s4 is not live (absent from the rows), s5 the reader cannot open.
  const spaces: Record<string, boolean> = { s0: true, s1: true, s2: true, s3: true, s5: false }
  const categories: Record<string, ReadonlyArray<string>> = { c0: ["s0", "s1"], c1: ["s2", "s4", "s5"], c2: ["s3"] }
  const lessonIds = Array.from({ length: 12 }, (_, i) => `les_${i}`)
  const topicIds = Array.from({ length: 10 + int(40) }, (_, i) => `top_${i}`)
  const nodes: Array<TopicNode> = topicIds.map((id) => ({
    id,
    name: `${pick(NAMES)} ${int(4)}`,
    spaceId: pick(spaceIds),
    live: next() < 0.9,
    lessonIds: some(lessonIds, 0.15),
    prerequisites: []
  }))
  const byId = new Map(nodes.map((node) => [node.id, node]))
  const withPrerequisites: Array<TopicNode> = nodes.map((node) => ({
    ...node,
    prerequisites: some(topicIds, 0.06).map((id): Prerequisite => {
      const p = byId.get(id)!
      return { id, name: p.name, spaceId: p.spaceId, live: p.live, nameLower: p.name.toLowerCase() }
    })
  }))
  const lessonTopics = new Map<string, Array<string>>()
  for (const node of withPrerequisites) for (const lessonId of node.lessonIds) lessonTopics.set(lessonId, [...(lessonTopics.get(lessonId) ?? []), node.id])
  const graph: TopicGraphSnapshot = { version: "1", topics: new Map(withPrerequisites.map((node) => [node.id, node])), lessonTopics }

  let dutyNumber = 0
  const holder = () => {
    const type = pick(["person", "team", "role"] as const)
    const name = type === "person" ? null : pick(NAMES)
    return [type, name] as const
  }
  const pointDuties: Array<HeldDutyTopic> = []
  for (let i = int(30); i > 0; i--) {
    const [type, name] = holder()
    pointDuties.push([pick(topicIds), pick(RACI), type, name, next() < 0.2, `dut_${int(1000)}_${dutyNumber++}`, (name ?? "").toLowerCase()])
  }
  const areaDuties: Array<HeldAreaDuty> = []
  for (let i = int(4); i > 0; i--) {
    const [type, name] = holder()
    const reach = next() < 0.5 ? [pick(spaceIds)] : categories[pick(Object.keys(categories))]!
    areaDuties.push([reach, pick(RACI), type, name, next() < 0.2, `dut_${int(1000)}_${dutyNumber++}`, (name ?? "").toLowerCase()])
  }
  // The same duties as the statement listed them before: one row per duty and topic, the spaces' topics after the rest.
  const expanded: Array<HeldDutyTopic> = [
    ...pointDuties,
    ...areaDuties.flatMap(([reach, ...duty]) =>
      reach.flatMap((spaceId) => nodes.filter((node) => node.spaceId === spaceId).map((node): HeldDutyTopic => [node.id, ...duty]))
    )
  ]

  const obligations: Array<OwedItem> = [
    ...some(lessonIds, 0.2).map((id): OwedItem => ["lesson", id, next() < 0.5, pick(DUE)]),
    ...some(topicIds, 0.1).map((id): OwedItem => ["topic", id, next() < 0.5, pick(DUE)]),
    ...["itm_0", "itm_1", "itm_2"].map((id): OwedItem => ["item", id, next() < 0.5, pick(DUE)])
  ]
  const owedLessons = obligations.filter(([type]) => type === "lesson").map(([, id]) => id)
  const flag = (b: boolean) => (b ? "1" : "0")
  const listed = new Set([...some(lessonIds, 0.6), ...owedLessons])
  const person: PersonQueueRow = {
    graph_version: "1",
    spaces,
    duties: pointDuties,
    area_duties: areaDuties,
    obligations,
    started: some(lessonIds, 0.2),
    retraining: some(lessonIds, 0.15),
    owed_items: [["itm_0", pick(topicIds)], ["itm_2", pick(topicIds)]],
    mastery: Object.fromEntries(some(topicIds, 0.5).map((id) => [id, pick(MASTERY)])),
    lessons: Object.fromEntries([...listed].map((id) => [
      id,
      `${flag(owedLessons.includes(id))}${flag(next() < 0.3)}${String(1_700_000_000_000_000 + int(5) * 1000).padStart(20, "0")}${id}`
    ])),
    owed_lessons: Object.fromEntries(owedLessons.filter(() => next() < 0.9).map((id) => [id, `${pick(NAMES)} lesson`]))
  }
  return { graph, person, expandedPerson: { ...person, duties: expanded, area_duties: null } satisfies PersonQueueRow }
}

/** A row as a candidate, as the service typed, prioritised and ranked rows before. */
const candidateOf = (row: QueueFactRow): QueueCandidate & { readonly row: QueueFactRow } => ({
  row,
  id: row.id,
  name: row.name,
  facts: {
    mastery: row.mastery,
    expected: row.raci === null ? null : expectedMastery(row.raci, row.senior),
    owed: row.owed,
    retrainingDue: row.retraining_due,
    started: row.started
  },
  raci: row.raci ?? ASSIGNED,
  required: row.required,
  dueAtMs: row.due_date === null ? null : row.due_date.getTime(),
  blocked: row.blocked
})

/** What an entry shows and how it ranks. */
const shown = (row: QueueFactRow, entry: { readonly type: string; readonly priority: string; readonly key: QueueRankKey }) =>
  JSON.stringify([entry.type, entry.priority, entry.key, row])

describe("learning queue: a page made from the page's entries only", () => {
  it("walking the queue page by page shows what the whole queue, every row made and ranked whole, shows", () => {
    for (let seed = 1; seed <= 150; seed++) {
      const { expandedPerson, graph, person } = randomCase(seed)
      const whole = rankQueue(assembleQueue(graph, expandedPerson).map(candidateOf), now)
      const candidates = queueCandidates(graph, person)
      for (const count of [1, 3, 51]) {
        let cursor: QueueRankKey | null = null
        for (let pages = 0; pages < 100; pages++) {
          const page: QueuePage<Candidate> = rankPage(candidates, now, cursor, count)
          const rows = factRows(graph, person, page.entries.map((entry) => entry.candidate))
          const after = cursor
          const from = after === null ? 0 : whole.findIndex((entry) => compareRankKeys(entry.key, after) > 0)
          const expected = from < 0 ? [] : whole.slice(from, from + count)
          expect(page.total, `seed ${seed}`).toBe(whole.length)
          expect(page.entries.map((entry, i) => shown(rows[i]!, entry)), `seed ${seed}, count ${count}, page ${pages}`)
            .toEqual(expected.map((entry) => shown(entry.candidate.row, entry)))
          if (page.entries.length < count) break
          cursor = page.entries[page.entries.length - 1]!.key
        }
      }
    }
  })

  it("a duty on a space or a category reaches its spaces' topics in the graph as the same duty listed on each topic does", () => {
    for (let seed = 1000; seed < 1150; seed++) {
      const { expandedPerson, graph, person } = randomCase(seed)
      const byId = (rows: ReadonlyArray<QueueFactRow>) => JSON.stringify([...rows].sort((a, b) => compareC(a.kind + a.id, b.kind + b.id)))
      expect(byId(assembleQueue(graph, person)), `seed ${seed}`).toBe(byId(assembleQueue(graph, expandedPerson)))
    }
  })

  it("names compare byte by byte as PostgreSQL's C collation does, beyond ASCII too", () => {
    const { pick } = generator(7)
    const pieces = ["a", "B", "z", "é", "É", "ß", "ÿ", "Ā", "中", "\uffef", "日本", "𝒜", "😀", "", "a"]
    for (let i = 0; i < 5000; i++) {
      const a = pick(pieces) + pick(pieces) + pick(pieces)
      const b = pick(pieces) + pick(pieces) + pick(pieces)
      expect(Math.sign(compareC(a, b)), `${a} / ${b}`).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))))
    }
  })
})
