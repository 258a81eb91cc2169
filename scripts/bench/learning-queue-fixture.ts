import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { categories } from "@tks/domain/knowledge"
import { random, topicName } from "./library-fixture.js"

type Element<K extends keyof OrgFixtureInput> = NonNullable<OrgFixtureInput[K]> extends ReadonlyArray<infer E> ? E : never
type Duty = Element<"duties">

/** The person whose queue is measured, their manager and their manager's manager. */
export const LEARNER = "learner"
export const MANAGER = "boss"
export const GRAND_MANAGER = "chief"
export const ADMIN = "admin1"
export const SECOND_ADMIN = "admin2"

const CATEGORIES = 8
const SPACES_PER_CATEGORY = 15
const TOPICS_PER_SPACE = 40
const CONTENT = 3000
const LESSONS = 800
const OTHER_PEOPLE = 290
const ROLES = 60
const TEAMS = 20

/**
 * An organization shaped around one learner with 1,000 duties (issue 8's
 * bench): a graph of 8 categories, 120 spaces and 4,800 topics (three items
 * each, one with a child item), 10% of spaces admins-only and 10% shared with
 * a team; 3,000 content records cited as evidence by two items a topic; 800
 * lessons of three content pieces (5% admins-only); a prerequisite before
 * about a third of the topics. 300 people, 20 teams, 60 company roles (every
 * third with three tiers), and about 4,300 duties of other holders.
 *
 * The learner's 1,000 duties, on random entities: 350 held directly (one
 * category, six spaces, 200 topics, 143 items), 250 through the five teams
 * they are on (four spaces, 150 topics, 96 items) and 400 through the three
 * roles they hold (one untiered, one at Senior, one at Junior; qualifiers
 * ALL, MIN_TIER, MAX_TIER and EXACT_TIER mixed; 250 topics, 150 items).
 * Mastery of a third of the graph, 60 completed enrollments (half with a
 * retraining due, policies on 20 lessons, half of them changed_material), 20
 * started, and 25 lesson, 20 topic and 10 item obligations with due dates
 * around now.
 */
export const learningQueueFixture = (now: Date = new Date()): OrgFixtureInput => {
  const rand = random(8)
  const int = (n: number) => Math.floor(rand() * n)
  const at = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString()

  const spaceKeys: Array<string> = []
  const topicKeys: Array<string> = []
  const itemKeys: Array<string> = []
  const spaces: Array<Element<"spaces">> = []
  for (let c = 0; c < CATEGORIES; c++) {
    for (let s = 0; s < SPACES_PER_CATEGORY; s++) {
      const space = `s${c}-${s}`
      spaceKeys.push(space)
      const topics = []
      for (let t = 0; t < TOPICS_PER_SPACE; t++) {
        const key = `${space}-t${t}`
        const k = topicKeys.length
        topicKeys.push(key)
        const cite = (n: number) => [{ content: `c${n % CONTENT}`, quote: "cited" }]
        const items = [
          { key: `${key}-i0`, name: `Step ${k}`, kind: "process" as const, evidence: cite(k), children: [{ key: `${key}-i0c`, name: `Detail ${k}`, kind: "fact" as const }] },
          { key: `${key}-i1`, name: `Rule ${k}`, kind: "policy" as const, evidence: cite(k * 7 + 1) },
          { key: `${key}-i2`, name: `Fact ${k}`, kind: "fact" as const }
        ]
        itemKeys.push(...items.map((item) => item.key))
        topics.push({ key, name: topicName(c * SPACES_PER_CATEGORY + s, t), items, prerequisites: t > 0 && rand() < 0.33 ? [`${space}-t${t - 1}`] : [] })
      }
      const restricted = (c * SPACES_PER_CATEGORY + s) % 10
      spaces.push({
        key: space,
        category: categories[c]!.slug,
        name: `Space ${c}-${s}`,
        ...(restricted === 3 ? { visibility: "admins" as const } : restricted === 7 ? { visibility: "teams" as const, teams: [`team${s % TEAMS}`] } : {}),
        topics
      })
    }
  }

  const content = Array.from({ length: CONTENT }, (_, n) => ({ key: `c${n}`, title: `Source ${n}`, chapters: [{ text: `Source ${n} text.` }] }))
  const lessons = Array.from({ length: LESSONS }, (_, j) => ({
    key: `l${j}`,
    title: `Lesson ${j}`,
    ...(j % 20 === 9 ? { visibility: "admins" as const } : {}),
    content: [`c${(3 * j) % CONTENT}`, `c${(3 * j + 1) % CONTENT}`, `c${(3 * j + 2) % CONTENT}`]
  }))

  const person = (key: string, name: string, extra: Record<string, unknown> = {}) => ({ key, name, email: `${key}@queue-bench.example`, role: "viewer" as const, ...extra })
  const people = [
    person("owner", "Owner", { role: "owner" }),
    person(ADMIN, "Admin One", { role: "admin", tokenScopes: [] }),
    // Reads the queue after a change to the topic graph, with a rate limit of its own.
    person(SECOND_ADMIN, "Admin Two", { role: "admin", tokenScopes: [] }),
    person(GRAND_MANAGER, "Chief", { tokenScopes: [] }),
    person(MANAGER, "Boss", { manager: GRAND_MANAGER, tokenScopes: [] }),
    person(LEARNER, "Learner", { manager: MANAGER, tokenScopes: [] }),
    ...Array.from({ length: OTHER_PEOPLE }, (_, i) => person(`o${i}`, `Other ${i}`, { manager: i < 10 ? MANAGER : `o${i % 10}` }))
  ]
  const teams = Array.from({ length: TEAMS }, (_, t) => ({
    key: `team${t}`,
    name: `Team ${t}`,
    members: [
      ...(t < 5 ? [{ person: LEARNER }] : []),
      ...Array.from({ length: 14 }, (_, m) => ({ person: `o${(t * 14 + m) % OTHER_PEOPLE}` }))
    ]
  }))
  const tiered = (r: number) => r % 3 === 1 || r === 2
  const companyRoles = Array.from({ length: ROLES }, (_, r) => ({
    key: `r${r}`,
    name: `Role ${r}`,
    tiers: tiered(r) ? ["Junior", "Senior", "Lead"].map((label, i) => ({ key: `r${r}-t${i}`, label })) : [],
    members: [
      ...(r === 0 ? [{ person: LEARNER }] : r === 1 ? [{ person: LEARNER, tier: "r1-t1" }] : r === 2 ? [{ person: LEARNER, tier: "r2-t0" }] : []),
      ...Array.from({ length: 5 }, (_, m) => ({ person: `o${(r * 5 + m) % OTHER_PEOPLE}`, ...(tiered(r) ? { tier: `r${r}-t${m % 3}` } : {}) }))
    ]
  }))

  const raci = () => (["RESPONSIBLE", "ACCOUNTABLE", "CONSULTED", "INFORMED"] as const)[int(4)]!
  const entity = (kind: "category" | "space" | "topic" | "item"): Duty["entity"] =>
    kind === "category" ? { category: categories[int(CATEGORIES)]!.slug }
    : kind === "space" ? { space: spaceKeys[int(spaceKeys.length)]! }
    : kind === "topic" ? { topic: topicKeys[int(topicKeys.length)]! }
    : { item: itemKeys[int(itemKeys.length)]! }
  const many = (holder: Duty["holder"], kind: "category" | "space" | "topic" | "item", n: number, tierOf?: (i: number) => Duty["tier"]) =>
    Array.from({ length: n }, (_, i): Duty => {
      const tier = tierOf?.(i)
      return { holder, raci: raci(), entity: entity(kind), ...(tier === undefined ? {} : { tier }) }
    })
  const qualifier = (role: string) => (i: number): Duty["tier"] => {
    const kinds = [undefined, "MIN_TIER", "MAX_TIER", "EXACT_TIER"] as const
    const kind = kinds[i % 4]
    return kind === undefined ? undefined : { qualifier: kind, tier: `${role}-t${i % 3}` }
  }
  const learnerDuties: Array<Duty> = [
    ...many({ person: LEARNER }, "category", 1),
    ...many({ person: LEARNER }, "space", 6),
    ...many({ person: LEARNER }, "topic", 200),
    ...many({ person: LEARNER }, "item", 143),
    ...[0, 1, 2, 3, 4].flatMap((t) => [
      ...many({ team: `team${t}` }, "space", t < 4 ? 1 : 0),
      ...many({ team: `team${t}` }, "topic", 30),
      ...many({ team: `team${t}` }, "item", t < 4 ? 19 : 20)
    ]),
    ...many({ role: "r0" }, "topic", 84),
    ...many({ role: "r0" }, "item", 50),
    ...many({ role: "r1" }, "topic", 83, qualifier("r1")),
    ...many({ role: "r1" }, "item", 50, qualifier("r1")),
    ...many({ role: "r2" }, "topic", 83, qualifier("r2")),
    ...many({ role: "r2" }, "item", 50, qualifier("r2"))
  ]
  if (learnerDuties.length !== 1000) throw new Error(`the learner has ${learnerDuties.length} duties, not 1,000`)
  const otherDuties: Array<Duty> = [
    ...Array.from({ length: ROLES - 3 }, (_, r) => r + 3).flatMap((r) => [
      ...many({ role: `r${r}` }, "topic", 25, tiered(r) ? qualifier(`r${r}`) : undefined),
      ...many({ role: `r${r}` }, "item", 15),
      ...many({ role: `r${r}` }, "space", 2)
    ]),
    ...Array.from({ length: TEAMS - 5 }, (_, t) => t + 5).flatMap((t) => many({ team: `team${t}` }, "topic", 20)),
    ...Array.from({ length: OTHER_PEOPLE }, (_, i) => many({ person: `o${i}` }, i % 2 === 0 ? "topic" : "item", 5)).flat()
  ]

  const mastery = topicKeys.filter(() => rand() < 0.33).map((topic) => ({
    person: LEARNER,
    topic,
    level: (["PARTIAL", "MASTERED", "MASTERED"] as const)[int(3)]!
  }))
  // A quiz ready with one question (so no quiz.prepare job runs).
  const readyQuiz = { questions: [{ number: 1, kind: "cloze" as const, question: "Fill in: ____", choices: [], correctAnswer: "yes", explanation: "" }] }
  const enrollments = [
    ...Array.from({ length: 60 }, (_, j) => ({
      person: LEARNER,
      lesson: `l${j * 3}`,
      status: "completed" as const,
      completedAt: at(-200 + j),
      retrainAt: j % 2 === 0 ? at(-10 - j) : at(100 + j),
      quiz: readyQuiz
    })),
    ...Array.from({ length: 20 }, (_, j) => ({ person: LEARNER, lesson: `l${j * 3 + 1}`, startedAt: at(-5 - j), quiz: readyQuiz }))
  ]
  const retrainingPolicies = Array.from({ length: 20 }, (_, j) => ({
    lesson: `l${j * 6}`,
    intervalDays: 180,
    completionMode: j % 2 === 0 ? "changed_material" as const : "full_retake" as const
  }))
  const obligations = [
    ...Array.from({ length: 25 }, (_, j) => ({ person: LEARNER, lesson: `l${400 + j * 7}`, dueDate: at(-20 + j * 3) })),
    ...Array.from({ length: 20 }, (_, j) => ({ person: LEARNER, topic: topicKeys[(j * 211) % topicKeys.length]!, dueDate: at(j * 5) })),
    ...Array.from({ length: 10 }, (_, j) => ({ person: LEARNER, item: itemKeys[(j * 977) % itemKeys.length]!, dueDate: null }))
  ]

  return {
    organization: { name: "Queue Bench", plan: "enterprise" },
    people,
    teams,
    companyRoles,
    spaces,
    content,
    lessons,
    duties: [...learnerDuties, ...otherDuties],
    mastery,
    enrollments,
    retrainingPolicies,
    obligations
  }
}
