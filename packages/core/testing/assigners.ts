import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * The organizations of the assigning tests. Assigning needs a
 * token with `training:assign`, which only organization admins and team
 * admins may be issued, so these callers have an organization of
 * their own:
 *
 * | key | role | teams | what they are for |
 * |---|---|---|---|
 * | owner, admin, billingAdmin | owner, admin, billing-admin | | organization admins: reach everyone |
 * | teamAdmin | viewer | ops, night (team-admin), alpha (team-viewer) | reaches the people on ops and night |
 * | demoted | viewer | dock (team-admin at import; tests demote them) | a token with training:assign kept after a demotion |
 * | viewer | viewer | ops, alpha | no training:assign (403) |
 * | external | external | ops | no training:assign; cannot read lessons for everyone |
 * | unscoped | admin | | a token without training:assign (403) |
 * | expired, revoked | admin | | an expired token; a token the test setup revokes |
 * | ann, bob | viewer | ops | learners; ann holds Driver (senior), bob Driver (junior); ann has a phone |
 * | cat | viewer | night | a learner; the night team has a duty on the pre-use check |
 * | dee | viewer | alpha | a learner outside every team the team admin administers; a direct duty on the floor space |
 * | eve | viewer | dock | on the demoted team admin's team |
 * | gone | viewer | ops | DEACTIVATED |
 * | learner01 ... learner40 | viewer | alpha | many learners for the audience and race tests |
 *
 * Lessons: `open` and `open2`...`open20` (everyone), `adminsOnly` (admins),
 * `opsOnly` (teams: ops), `closed` (closed), `personal` (generated for ann).
 * The knowledge graph: space Floor (operations) > topic Forklift (items Pre-use
 * check > Brakes) and topic Loading; an archived topic. Company role Driver
 * (tiers junior < senior): ann senior, bob junior; duties: Driver at
 * MIN_TIER senior on Forklift, team night on Pre-use check, dee on the Floor
 * space, Packer (no path) on Loading; Packer is held by nobody.
 *
 * **elsewhere**: another organization, with an admin `otto` (training:assign),
 * a team, a lesson and a person, whose ids are unknown to the first.
 */
/** A token with training:assign, and one without, for a fixture person. */
export const assign = { tokenScopes: ["training:assign"] } as const
export const none = { tokenScopes: [] } as const

type Role = "owner" | "admin" | "billing-admin" | "viewer" | "external"

/** Fixture people of one organization, their emails at `domain`. */
export const peopleAt = (domain: string) => (key: string, name: string, role: Role, extra: object = {}) => ({
  key,
  name,
  email: `${key.toLowerCase()}@${domain}`,
  role,
  ...extra
})

const person = peopleAt("assigners.test")

export const learnerKeys = Array.from({ length: 40 }, (_, i) => `learner${String(i + 1).padStart(2, "0")}`)
export const openLessonKeys = ["open", ...Array.from({ length: 19 }, (_, i) => `open${i + 2}`)]

export const assigners: OrgFixtureInput = {
  organization: { name: "Assigners", plan: "pro" },
  people: [
    person("owner", "Olga Owner", "owner", assign),
    person("admin", "Arno Admin", "admin", assign),
    person("billingAdmin", "Bea Billing", "billing-admin", assign),
    person("teamAdmin", "Tia Teamadmin", "viewer", assign),
    person("demoted", "Desmond Demoted", "viewer", assign),
    person("viewer", "Vic Viewer", "viewer", none),
    person("external", "Exa External", "external", none),
    person("unscoped", "Una Unscoped", "admin", none),
    person("expired", "Eli Expired", "admin", { ...assign, tokenExpiresAt: "2020-01-01T00:00:00.000Z" }),
    person("revoked", "Rae Revoked", "admin", assign),
    person("ann", "Ann Driver", "viewer", { phone: "+15550300" }),
    person("bob", "Bob Driver", "viewer"),
    person("cat", "Cat Night", "viewer"),
    person("dee", "Dee Alpha", "viewer"),
    person("eve", "Eve Dock", "viewer"),
    person("gone", "Gil Gone", "viewer", { status: "DEACTIVATED", deactivatedAt: "2026-01-15T08:30:00.000Z" }),
    ...learnerKeys.map((key, i) => person(key, `Learner ${String(i + 1).padStart(2, "0")}`, "viewer"))
  ],
  teams: [
    {
      key: "ops",
      name: "Ops",
      members: [
        { person: "teamAdmin", role: "team-admin" },
        { person: "viewer" },
        { person: "external" },
        { person: "ann" },
        { person: "bob" },
        { person: "gone" }
      ]
    },
    { key: "night", name: "Night", members: [{ person: "teamAdmin", role: "team-admin" }, { person: "cat" }] },
    {
      key: "alpha",
      name: "Alpha",
      members: [{ person: "teamAdmin" }, { person: "viewer" }, { person: "dee" }, ...learnerKeys.map((key) => ({ person: key }))]
    },
    { key: "dock", name: "Dock", members: [{ person: "demoted", role: "team-admin" }, { person: "eve" }] },
    { key: "empty", name: "Empty" }
  ],
  spaces: [
    {
      key: "floor",
      category: "operations",
      name: "Floor",
      topics: [
        {
          key: "forklift",
          name: "Forklift",
          items: [{ key: "preuse", name: "Pre-use check", kind: "process", children: [{ key: "brakes", name: "Brakes", kind: "fact" }] }]
        },
        { key: "loading", name: "Loading" },
        { key: "oldTopic", name: "Old topic", state: "archived" }
      ]
    }
  ],
  companyRoles: [
    {
      key: "driver",
      name: "Driver",
      tiers: [{ key: "junior", label: "Junior" }, { key: "senior", label: "Senior" }],
      members: [
        { person: "ann", tier: "senior", startedAt: "2026-01-01T00:00:00.000Z" },
        { person: "bob", tier: "junior", startedAt: "2026-01-01T00:00:00.000Z" }
      ]
    },
    { key: "packer", name: "Packer" }
  ],
  duties: [
    { holder: { role: "driver" }, raci: "RESPONSIBLE", entity: { topic: "forklift" }, tier: { qualifier: "MIN_TIER", tier: "senior" } },
    { holder: { team: "night" }, raci: "ACCOUNTABLE", entity: { item: "preuse" } },
    { holder: { person: "dee" }, raci: "INFORMED", entity: { space: "floor" } },
    { holder: { role: "packer" }, raci: "CONSULTED", entity: { topic: "loading" } },
    { holder: { role: "driver" }, raci: "RESPONSIBLE", entity: { topic: "oldTopic" } }
  ],
  lessons: [
    ...openLessonKeys.map((key, i) => ({ key, title: `Open lesson ${i + 1}` })),
    { key: "adminsOnly", title: "Board secrets", visibility: "admins" as const },
    { key: "opsOnly", title: "Ops drills", visibility: "teams" as const, teams: ["ops"] },
    { key: "closed", title: "Retired course", status: "closed" as const },
    { key: "personal", title: "Just for Ann", personalFor: "ann" }
  ]
}

export const elsewhere: OrgFixtureInput = {
  organization: { name: "Elsewhere", plan: "starter" },
  people: [
    { key: "otto", name: "Otto Elsewhere", email: "otto@elsewhere.test", role: "admin", ...assign },
    { key: "pia", name: "Pia Elsewhere", email: "pia@elsewhere.test", role: "viewer" }
  ],
  teams: [{ key: "foreign", name: "Foreign", members: [{ person: "pia" }] }],
  lessons: [{ key: "foreignLesson", title: "Foreign lesson" }]
}
