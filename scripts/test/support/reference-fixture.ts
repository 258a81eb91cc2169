import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { largeFixture } from "../../bench/import-fixture.js"

type Element<K extends keyof OrgFixtureInput> = NonNullable<OrgFixtureInput[K]> extends ReadonlyArray<infer E> ? E : never

export const LEARNER = "learner"
/** People of the organization; with a page size of 3 the members listing has 80 pages. */
export const PEOPLE = 240
const LESSONS = 30

/**
 * The bench's large organization at a small size (240 people, 10 roles, 200
 * topics in 100 spaces, 150 content records), plus what the learning queue,
 * the obligations and the enrollments read, around one learner (a viewer on
 * two teams, holding two roles, one at a tier): duties held directly, through
 * the teams and through the roles with every tier qualifier; lessons built
 * from the content the topics cite (so they cover topics); a prerequisite
 * before every second topic of a space; a space for admins only and two for
 * teams; mastery, completed enrollments with retraining due, started ones,
 * and lesson, topic and item obligations due before and after now.
 */
export const referenceFixture = (now: Date = new Date()): OrgFixtureInput => {
  const base = largeFixture({ people: PEOPLE, roles: 10, topics: 200, content: 150 }, now)
  const at = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString()
  const learner: Element<"people"> = { key: LEARNER, name: "Lea Learner", email: "learner@bench.example", role: "viewer", manager: "p9", tokenScopes: [] }
  const teams = (base.teams ?? []).map((team, t) => t < 2 ? { ...team, members: [...(team.members ?? []), { person: LEARNER }] } : team)
  const companyRoles = (base.companyRoles ?? []).map((role) =>
    role.key === "r5" ? { ...role, members: [...(role.members ?? []), { person: LEARNER, tier: "r5-t2" }] }
    : role.key === "r3" ? { ...role, members: [...(role.members ?? []), { person: LEARNER }] }
    : role
  )
  const spaces = (base.spaces ?? []).map((space, s) => ({
    ...space,
    ...(s === 7 ? { visibility: "admins" as const } : s === 8 ? { visibility: "teams" as const, teams: ["team1"] } : s === 9 ? { visibility: "teams" as const, teams: ["team2"] } : {}),
    topics: (space.topics ?? []).map((topic, t) => t === 1 ? { ...topic, prerequisites: [`s${s}-t0`] } : topic)
  }))
  // Topic number T (s{T/2}-t{T%2}) cites content 2T and 2T+1 (mod 150): lesson j covers topics j and j + 75.
  const lessons = Array.from({ length: LESSONS }, (_, j) => ({
    key: `l${j}`,
    title: `Lesson ${j}`,
    ...(j % 10 === 9 ? { visibility: "admins" as const } : {}),
    content: [`c${2 * j}`, `c${2 * j + 1}`]
  }))
  const duty = (holder: Element<"duties">["holder"], raci: Element<"duties">["raci"], entity: Element<"duties">["entity"], tier?: Element<"duties">["tier"]) =>
    ({ holder, raci, entity, ...(tier === undefined ? {} : { tier }) })
  const duties = [
    ...(base.duties ?? []),
    duty({ person: LEARNER }, "RESPONSIBLE", { topic: "s0-t0" }),
    duty({ person: LEARNER }, "CONSULTED", { item: "s1-t1-i1" }),
    duty({ person: LEARNER }, "ACCOUNTABLE", { space: "s2" }),
    duty({ person: LEARNER }, "INFORMED", { topic: "s7-t0" }),
    duty({ person: LEARNER }, "RESPONSIBLE", { topic: "s8-t1" }),
    duty({ team: "team0" }, "ACCOUNTABLE", { topic: "s3-t0" }),
    duty({ team: "team1" }, "CONSULTED", { topic: "s4-t1" }),
    duty({ team: "team1" }, "INFORMED", { topic: "s9-t0" }),
    duty({ role: "r3" }, "RESPONSIBLE", { topic: "s5-t0" }),
    duty({ role: "r5" }, "RESPONSIBLE", { topic: "s6-t0" }, { qualifier: "MIN_TIER", tier: "r5-t1" }),
    duty({ role: "r5" }, "ACCOUNTABLE", { topic: "s6-t1" }, { qualifier: "MAX_TIER", tier: "r5-t0" }),
    duty({ role: "r5" }, "CONSULTED", { topic: "s10-t0" }, { qualifier: "EXACT_TIER", tier: "r5-t2" }),
    duty({ role: "r5" }, "INFORMED", { category: "operations" })
  ]
  const readyQuiz = { questions: [{ number: 1, kind: "cloze" as const, question: "Fill in: ____", choices: [], correctAnswer: "yes", explanation: "" }] }
  return {
    ...base,
    people: [...(base.people ?? []), learner],
    teams,
    companyRoles,
    spaces,
    lessons,
    duties,
    mastery: [
      { person: LEARNER, topic: "s0-t0", level: "PARTIAL" },
      { person: LEARNER, topic: "s1-t0", level: "MASTERED" },
      { person: LEARNER, topic: "s3-t0", level: "MASTERED" },
      { person: LEARNER, topic: "s5-t0", level: "PARTIAL" }
    ],
    enrollments: [
      ...Array.from({ length: 6 }, (_, j) => ({
        person: LEARNER,
        lesson: `l${j * 2}`,
        status: "completed" as const,
        completedAt: at(-200 + j),
        retrainAt: j % 2 === 0 ? at(-10 - j) : at(100 + j),
        quiz: readyQuiz
      })),
      ...Array.from({ length: 3 }, (_, j) => ({ person: LEARNER, lesson: `l${j * 2 + 1}`, startedAt: at(-5 - j), quiz: readyQuiz }))
    ],
    retrainingPolicies: [
      { lesson: "l0", intervalDays: 180, completionMode: "changed_material" as const },
      { lesson: "l2", intervalDays: 180, completionMode: "full_retake" as const }
    ],
    obligations: [
      ...Array.from({ length: 5 }, (_, j) => ({ person: LEARNER, lesson: `l${12 + j * 3}`, dueDate: at(-20 + j * 10) })),
      { person: LEARNER, topic: "s11-t0", dueDate: at(3) },
      { person: LEARNER, topic: "s12-t1", dueDate: null },
      { person: LEARNER, item: "s13-t0-i0", dueDate: at(-2) },
      { person: LEARNER, item: "s14-t1-i2", dueDate: null }
    ]
  }
}
