import { describe, expect, it } from "@effect/vitest"
import { assembleQueue } from "@tks/core/learning-queue/assemble"
import type { HeldDutyTopic, PersonQueueRow } from "@tks/core/learning-queue/person-queue-repo"
import type { TopicGraphSnapshot, TopicNode } from "@tks/core/learning-queue/topic-graph"

/**
 * The learning queue's candidates put together in memory from the person's
 * rows and the organization's topic graph (learning-queue/assemble.ts): the
 * rules the statement used to apply in SQL, on hand-made rows. The HTTP
 * tests (apps/server learning-queue-*.test.ts) hold the whole read.
 */

const topic = (id: string, extra: Partial<TopicNode> = {}): TopicNode => ({
  id,
  name: id.toUpperCase(),
  spaceId: "open",
  live: true,
  lessonIds: [`l_${id}`],
  prerequisites: [],
  ...extra
})

const graphOf = (...topics: ReadonlyArray<TopicNode>): TopicGraphSnapshot => {
  const lessonTopics = new Map<string, Array<string>>()
  for (const t of topics) for (const l of t.lessonIds) lessonTopics.set(l, [...(lessonTopics.get(l) ?? []), t.id])
  return { version: "1", topics: new Map(topics.map((t) => [t.id, t])), lessonTopics }
}

/** Lesson preference text: owed flag, enrolled flag, a 20-digit time, the id. */
const pref = (id: string, { enrolled = false, owed = false, time = 1 } = {}) =>
  `${owed ? 1 : 0}${enrolled ? 1 : 0}${String(time).padStart(20, "0")}${id}`

const duty = (topicId: string, raci: HeldDutyTopic[1], holder: HeldDutyTopic[2], name: string | null, dutyId: string, senior = false): HeldDutyTopic =>
  [topicId, raci, holder, name, senior, dutyId, (name ?? "").toLowerCase()]

const person = (row: Partial<PersonQueueRow>): PersonQueueRow => ({
  graph_version: "1",
  spaces: { open: true, secret: false },
  duties: null,
  obligations: null,
  started: null,
  retraining: null,
  owed_items: null,
  mastery: null,
  lessons: null,
  owed_lessons: null,
  ...row
})

const byId = (rows: ReturnType<typeof assembleQueue>) => Object.fromEntries(rows.map((row) => [row.id, row]))

describe("learning queue: assembling the candidates", () => {
  it("the strongest duty is shown: R before A, through a role before a team before directly, then by name; senior if any duty is", () => {
    const rows = byId(assembleQueue(graphOf(topic("a")), person({
      lessons: { l_a: pref("l_a") },
      duties: [
        duty("a", "ACCOUNTABLE", "role", "Zed", "d1"),
        duty("a", "RESPONSIBLE", "person", null, "d2"),
        duty("a", "RESPONSIBLE", "team", "beta", "d3"),
        duty("a", "RESPONSIBLE", "team", "Alpha", "d4"),
        duty("a", "INFORMED", "role", "Any", "d5", true)
      ]
    })))
    expect(rows.a).toMatchObject({ raci: "RESPONSIBLE", holder_type: "team", holder_name: "Alpha", senior: true, lesson_id: "l_a" })
  })

  it("a topic the reader cannot open, in a space not live, archived or without a lesson to start from is no entry", () => {
    const graph = graphOf(topic("hidden", { spaceId: "secret" }), topic("gone", { spaceId: "archived" }), topic("old", { live: false }), topic("bare"))
    const rows = assembleQueue(graph, person({
      lessons: { l_hidden: pref("l_hidden"), l_gone: pref("l_gone"), l_old: pref("l_old") },
      duties: ["hidden", "gone", "old", "bare"].map((id, i) => duty(id, "RESPONSIBLE", "person", null, `d${i}`))
    }))
    expect(rows).toEqual([])
  })

  it("the lesson to start from is the highest preference among the topic's lessons the person's rows list", () => {
    const rows = byId(assembleQueue(graphOf(topic("a", { lessonIds: ["l1", "l2", "l3"] })), person({
      lessons: { l1: pref("l1", { time: 9 }), l2: pref("l2", { enrolled: true, time: 1 }) },
      duties: [duty("a", "INFORMED", "person", null, "d")]
    })))
    expect(rows.a!.lesson_id).toBe("l2")
  })

  it("owing a topic through several obligations: required if any is, due at the earliest date", () => {
    const graph = graphOf(topic("a", { lessonIds: ["owed"] }))
    const rows = byId(assembleQueue(graph, person({
      lessons: { owed: pref("owed", { owed: true }) },
      obligations: [
        ["lesson", "owed", false, "2026-03-01T00:00:00+00:00"],
        ["topic", "a", true, "2026-05-01T00:00:00+00:00"],
        ["item", "i1", false, "2026-02-01T00:00:00+00:00"]
      ],
      owed_items: [["i1", "a"]],
      owed_lessons: { owed: "Owed lesson" }
    })))
    expect(rows.a).toMatchObject({ owed: true, required: true, raci: null })
    expect(rows.a!.due_date!.toISOString()).toBe("2026-02-01T00:00:00.000Z")
    // The lesson is backed by a topic the reader opens: no entry of its own.
    expect(rows.owed).toBeUndefined()
  })

  it("a lesson owed that no readable topic backs is its own entry: the lowest mastery of its topics, NONE when it covers none", () => {
    const graph = graphOf(topic("s1", { spaceId: "secret", lessonIds: ["vault"] }), topic("s2", { spaceId: "secret", lessonIds: ["vault"] }))
    const rows = byId(assembleQueue(graph, person({
      obligations: [["lesson", "vault", true, null], ["lesson", "empty", false, null]],
      owed_lessons: { vault: "Vault", empty: "Empty" },
      mastery: { s1: "MASTERED", s2: "PARTIAL" },
      started: ["vault"],
      retraining: ["empty"]
    })))
    expect(rows.vault).toMatchObject({ kind: "lesson", name: "Vault", mastery: "PARTIAL", required: true, started: true, retraining_due: false })
    expect(rows.empty).toMatchObject({ kind: "lesson", name: "Empty", mastery: "NONE", required: false, started: false, retraining_due: true })
  })

  it("blocked by a live prerequisite not mastered: named by the first by name the reader can open, unnamed when only hidden ones block", () => {
    const p = (id: string, name: string, spaceId = "open", live = true) => ({ id, name, spaceId, live, nameLower: name.toLowerCase() })
    const graph = graphOf(
      topic("a", { prerequisites: [p("p1", "beta"), p("p2", "Alpha"), p("p3", "Aaa hidden", "secret"), p("p4", "Archived", "open", false)] }),
      topic("b", { prerequisites: [p("p3", "Aaa hidden", "secret")] }),
      topic("c", { prerequisites: [p("p5", "Mastered"), p("p6", "In a space not live", "gone")] })
    )
    const rows = byId(assembleQueue(graph, person({
      lessons: { l_a: pref("l_a"), l_b: pref("l_b"), l_c: pref("l_c") },
      duties: ["a", "b", "c"].map((id) => duty(id, "RESPONSIBLE", "person", null, `d_${id}`)),
      mastery: { p2: "MASTERED", p5: "MASTERED" }
    })))
    expect(rows.a).toMatchObject({ blocked: true, blocking_name: "beta" })
    expect(rows.b).toMatchObject({ blocked: true, blocking_name: null })
    expect(rows.c).toMatchObject({ blocked: false, blocking_name: null })
  })

  it("started and retraining due come from the lessons covering the topic; mastery is NONE without a row", () => {
    const graph = graphOf(topic("a", { lessonIds: ["l1", "l2"] }), topic("b", { lessonIds: ["l2"] }))
    const rows = byId(assembleQueue(graph, person({
      lessons: { l1: pref("l1"), l2: pref("l2") },
      duties: [duty("a", "CONSULTED", "person", null, "d1"), duty("b", "CONSULTED", "person", null, "d2")],
      started: ["l1"],
      retraining: ["l2"],
      mastery: { b: "PARTIAL" }
    })))
    expect(rows.a).toMatchObject({ started: true, retraining_due: true, mastery: "NONE" })
    expect(rows.b).toMatchObject({ started: false, retraining_due: true, mastery: "PARTIAL" })
  })
})
