import { categories } from "@tks/domain/knowledge"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"

type Element<K extends keyof OrgFixtureInput> = NonNullable<OrgFixtureInput[K]> extends ReadonlyArray<infer E> ? E : never
type RoleMember = NonNullable<Element<"companyRoles">["members"]>[number]
type Item = NonNullable<NonNullable<Element<"spaces">["topics"]>[number]["items"]>[number]

const slugAt = (i: number) => categories[i % categories.length]?.slug ?? "operations"

/**
 * A large organization for the import benchmark: `people` people in a manager
 * tree (eight reports each, a few managers without an account), `roles`
 * company roles in a tree, every fifth with three tiers, each person holding
 * one role (at a tier where the role has them), teams of 100, a knowledge
 * graph of 50 spaces x 10 topics x 10 items (each with one child item), and
 * four duties per role, some tier-qualified.
 */
export const largeFixture = (peopleCount: number, roleCount: number): OrgFixtureInput => {
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
      ...(i < 20 ? { tokenScopes: ["training:assign", "content:write"] as const } : {})
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
      curriculum: [{ topic: `s${r % 50}-t${r % 10}` }]
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

  const spaces: Array<Element<"spaces">> = []
  for (let s = 0; s < 50; s++) {
    const topics = []
    for (let t = 0; t < 10; t++) {
      const items: Array<Item> = []
      for (let k = 0; k < 10; k++) {
        items.push({
          key: `s${s}-t${t}-i${k}`,
          name: `Item ${k} of topic ${t}`,
          kind: "process",
          children: [{ key: `s${s}-t${t}-i${k}-c`, name: "Detail", kind: "fact" }]
        })
      }
      topics.push({ key: `s${s}-t${t}`, name: `Topic ${t} of space ${s}`, items })
    }
    spaces.push({ key: `s${s}`, category: slugAt(s), name: `Space ${s}`, topics })
  }

  const duties: Array<Element<"duties">> = []
  for (let r = 0; r < roleCount; r++) {
    const s = r % 50
    duties.push(
      { holder: { role: `r${r}` }, raci: "RESPONSIBLE", entity: { topic: `s${s}-t${r % 10}` } },
      { holder: { role: `r${r}` }, raci: "ACCOUNTABLE", entity: { space: `s${s}` } },
      {
        holder: { role: `r${r}` },
        raci: "CONSULTED",
        entity: { item: `s${s}-t${r % 10}-i${r % 10}` },
        ...(tiered(r) ? { tier: { qualifier: "MIN_TIER" as const, tier: `r${r}-t1` } } : {})
      },
      { holder: { team: `team${r % Math.max(1, teams.length)}` }, raci: "INFORMED", entity: { category: slugAt(r) } }
    )
  }

  return { organization: { name: "Bench Corp", plan: "enterprise" }, people, teams, companyRoles, spaces, duties }
}
