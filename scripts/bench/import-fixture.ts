import { categories } from "@tks/domain/knowledge"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { generateLibrary, itemName, random, topicName } from "./library-fixture.js"

type Element<K extends keyof OrgFixtureInput> = NonNullable<OrgFixtureInput[K]> extends ReadonlyArray<infer E> ? E : never
type RoleMember = NonNullable<Element<"companyRoles">["members"]>[number]
type Item = NonNullable<NonNullable<Element<"spaces">["topics"]>[number]["items"]>[number]

const slugAt = (i: number) => categories[i % categories.length]?.slug ?? "operations"

export interface LargeFixtureSize {
  readonly people: number
  readonly roles: number
  /** Topics of the knowledge graph, in 100 spaces (fewer when there are fewer than 100 topics). */
  readonly topics: number
  /** Content records of the library, each with its chapters. */
  readonly content: number
}

/** Three items a topic, the first with a child item. */
const ITEMS_PER_TOPIC = 3
/** The viewer the bench also calls as: no admin, a member of team3, which some team-only content names. */
export const VIEWER_KEY = "p350"

/**
 * A large organization for the benchmark: `people` people in a manager
 * tree (eight reports each, a few managers without an account), `roles`
 * company roles in a tree, every fifth with three tiers, each person holding
 * one role (at a tier where the role has them), teams of 100, a knowledge
 * graph of `topics` topics in 100 spaces (three items each, the first with
 * a child item; the first two items of a topic cite a content record as
 * evidence), four duties per role, some tier-qualified, and a library of
 * `content` records with chapters (library-fixture.ts).
 */
export const largeFixture = (size: LargeFixtureSize, now: Date = new Date()): OrgFixtureInput => {
  const { people: peopleCount, roles: roleCount } = size
  const spaceCount = Math.max(1, Math.min(100, size.topics))
  const topicsPerSpace = Math.max(1, Math.round(size.topics / spaceCount))
  const tiered = (r: number) => r % 5 === 0
  const members: Array<Array<RoleMember>> = Array.from({ length: roleCount }, () => [])

  const people: Array<Element<"people">> = []
  for (let i = 0; i < peopleCount; i++) {
    const manager = i === 0 ? {} : i % 1000 === 999
      ? { manager: { name: `Outside Manager ${i}`, email: `outside${i}@agency.example` } }
      : { manager: `p${Math.floor((i - 1) / 8)}` }
    people.push({
      key: `p${i}`,
      name: `Person ${i}`,
      email: `person${i}@bench.example`,
      role: i === 0 ? "owner" : i < 20 ? "admin" : "viewer",
      ...(i % 3 === 0 ? { phone: `+1555${String(i).padStart(7, "0")}` } : {}),
      ...(i % 97 === 0 && i > 0 ? { status: "DEACTIVATED" as const } : {}),
      ...manager,
      ...(i < 20 ? { tokenScopes: ["training:assign", "content:write", "narration:synthesize"] as const } : {}),
      ...(`p${i}` === VIEWER_KEY ? { tokenScopes: ["content:write"] as const } : {})
    })
    const r = i % roleCount
    members[r]?.push({ person: `p${i}`, ...(tiered(r) ? { tier: `r${r}-t${i % 3}` } : {}) })
  }

  const companyRoles: Array<Element<"companyRoles">> = []
  for (let r = 0; r < roleCount; r++) {
    companyRoles.push({
      key: `r${r}`,
      name: `Role ${r}`,
      ...(r === 0 ? {} : { parent: `r${Math.floor((r - 1) / 4)}` }),
      tiers: tiered(r) ? [{ key: `r${r}-t0`, label: "Associate" }, { key: `r${r}-t1`, label: "Senior" }, { key: `r${r}-t2`, label: "Lead" }] : [],
      members: members[r] ?? [],
      curriculum: [{ topic: `s${r % spaceCount}-t${r % topicsPerSpace}` }]
    })
  }

  const teams: Array<Element<"teams">> = []
  for (let t = 0; t * 100 < peopleCount; t++) {
    const teamMembers = []
    for (let i = t * 100; i < Math.min(peopleCount, (t + 1) * 100); i++) {
      teamMembers.push({ person: `p${i}`, role: i % 100 === 0 ? "team-admin" as const : "team-viewer" as const })
    }
    teams.push({ key: `team${t}`, name: `Team ${t}`, members: teamMembers })
  }

  const library = generateLibrary(size.content, teams.map((team) => team.key), now)
  const rand = random(5)
  const spaces: Array<Element<"spaces">> = []
  let cited = 0
  for (let s = 0; s < spaceCount; s++) {
    const topics = []
    for (let t = 0; t < topicsPerSpace; t++) {
      const items: Array<Item> = []
      for (let k = 0; k < ITEMS_PER_TOPIC; k++) {
        const evidence = k < 2 && size.content > 0 ? [library.evidenceFor(cited++ % size.content)] : []
        items.push({
          key: `s${s}-t${t}-i${k}`,
          name: itemName(rand),
          kind: (["process", "policy", "fact"] as const)[k % 3]!,
          evidence,
          children: k === 0 ? [{ key: `s${s}-t${t}-i${k}-c`, name: itemName(rand), kind: "fact" }] : []
        })
      }
      topics.push({ key: `s${s}-t${t}`, name: topicName(s, t), items })
    }
    spaces.push({ key: `s${s}`, category: slugAt(s), name: `Space ${s}`, topics })
  }

  const duties: Array<Element<"duties">> = []
  for (let r = 0; r < roleCount; r++) {
    const s = r % spaceCount
    duties.push(
      { holder: { role: `r${r}` }, raci: "RESPONSIBLE", entity: { topic: `s${s}-t${r % topicsPerSpace}` } },
      { holder: { role: `r${r}` }, raci: "ACCOUNTABLE", entity: { space: `s${s}` } },
      {
        holder: { role: `r${r}` },
        raci: "CONSULTED",
        entity: { item: `s${s}-t${r % topicsPerSpace}-i${r % ITEMS_PER_TOPIC}` },
        ...(tiered(r) ? { tier: { qualifier: "MIN_TIER" as const, tier: `r${r}-t1` } } : {})
      },
      { holder: { team: `team${r % Math.max(1, teams.length)}` }, raci: "INFORMED", entity: { category: slugAt(r) } }
    )
  }

  return {
    organization: { name: "Bench Corp", plan: "enterprise" },
    people,
    teams,
    companyRoles,
    spaces,
    content: [...library.content],
    duties
  }
}
