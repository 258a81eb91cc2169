import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { CompanyRole } from "@tks/domain/company-role"
import type { OrgRole } from "@tks/domain/roles"
import { TestDatabaseLive } from "@tks/db/test-database"
import { CompanyRoles } from "../src/company-roles/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, CompanyRoles.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const person = (key: string, name: string, role: OrgRole, extra: Record<string, unknown> = {}) => ({
  key,
  name,
  email: `${key}@roles.test`,
  role,
  ...extra
})

const acme: OrgFixtureInput = {
  organization: { name: "Roles Org" },
  people: [
    person("olivia", "Olivia Owner", "owner"),
    person("adam", "Adam Admin", "admin"),
    person("bella", "Bella Billing", "billing-admin"),
    person("victor", "Victor Viewer", "viewer"),
    person("liam", "Liam Loner", "viewer"),
    person("ella", "Ella External", "external"),
    person("amy", "amy Holder", "viewer"),
    person("dan", "Dan Deactivated", "viewer", { status: "DEACTIVATED" }),
    person("ed", "Ed Ended", "viewer")
  ],
  teams: [
    { key: "ops", name: "Ops", members: [{ person: "victor", role: "team-admin" }] },
    { key: "ext", name: "Partners", members: [{ person: "ella" }] }
  ],
  spaces: [
    {
      key: "platform",
      category: "engineering",
      name: "Platform",
      topics: [
        {
          key: "deploy",
          name: "Deployments",
          items: [
            {
              key: "rollout",
              name: "Rollout checklist",
              kind: "process",
              children: [
                {
                  key: "canary",
                  name: "Canary step",
                  kind: "process",
                  children: [{ key: "canaryMetrics", name: "Canary metrics", kind: "fact" }]
                },
                {
                  key: "oldStep",
                  name: "Old step",
                  kind: "process",
                  state: "archived",
                  children: [{ key: "underArchived", name: "Under archived", kind: "fact" }]
                }
              ]
            },
            { key: "hotfix", name: "hotfix policy", kind: "policy" },
            { key: "superseded", name: "Superseded fact", kind: "fact", state: "superseded" }
          ]
        },
        {
          key: "archivedTopic",
          name: "Archived topic",
          state: "archived",
          items: [{ key: "inArchivedTopic", name: "In archived topic", kind: "fact" }]
        }
      ]
    },
    {
      key: "runbooks",
      category: "engineering",
      name: "Team Runbooks",
      visibility: "teams",
      teams: ["ops", "ext"],
      topics: [{ key: "oncall", name: "On-call", items: [{ key: "pager", name: "Pager rotation", kind: "process" }] }]
    },
    {
      key: "secrets",
      category: "engineering",
      name: "Secrets",
      visibility: "admins",
      topics: [{ key: "keys", name: "Key rotation", items: [{ key: "vault", name: "Vault access", kind: "policy" }] }]
    },
    {
      key: "legacy",
      category: "engineering",
      name: "Legacy",
      state: "archived",
      topics: [{ key: "legacyTopic", name: "Legacy topic", items: [{ key: "legacyItem", name: "Legacy item", kind: "fact" }] }]
    },
    {
      key: "facilities",
      category: "facilities",
      name: "Buildings",
      topics: [
        {
          key: "safety",
          name: "Safety",
          items: [
            {
              key: "fire",
              name: "Fire drill",
              kind: "process",
              children: [{ key: "warden", name: "Fire warden", kind: "fact" }]
            },
            { key: "firstAid", name: "First aid", kind: "fact" }
          ]
        }
      ]
    }
  ],
  lessons: [
    { key: "onboarding", title: "Onboarding" },
    { key: "incident", title: "Incident command", visibility: "admins" },
    { key: "drills", title: "Team drills", visibility: "teams", teams: ["ops"] }
  ],
  companyRoles: [
    {
      key: "eng",
      name: "Engineer",
      description: "Builds and runs the platform",
      tiers: [{ key: "associate", label: "Associate" }, { key: "senior", label: "Senior" }, { key: "lead", label: "Lead" }],
      members: [
        { person: "victor", tier: "senior" },
        { person: "amy", tier: "associate" },
        { person: "ella" },
        { person: "dan" },
        { person: "ed", startedAt: "2024-01-01T00:00:00.000Z", endedAt: "2025-01-01T00:00:00.000Z" }
      ],
      curriculum: [
        { lesson: "onboarding" },
        { topic: "deploy" },
        { lesson: "incident" },
        { topic: "oncall" },
        { topic: "archivedTopic" },
        { lesson: "drills" },
        { topic: "legacyTopic" },
        { topic: "keys" }
      ]
    },
    { key: "sre", name: "Site Reliability", parent: "eng", members: [{ person: "amy" }] },
    { key: "ops", name: "Operations Lead" },
    { key: "sure", name: "100% Sure_Thing" },
    { key: "under", name: "Under Study" },
    { key: "betaLower", name: "beta tester" },
    { key: "betaUpper", name: "Beta" },
    { key: "alpha", name: "Alpha" }
  ],
  thirdParties: [{ key: "vendor", name: "Vendor" }],
  duties: [
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { category: "engineering" }, tier: { qualifier: "MIN_TIER", tier: "senior" } },
    { holder: { role: "eng" }, raci: "ACCOUNTABLE", entity: { space: "platform" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "deploy" } },
    { holder: { role: "eng" }, raci: "INFORMED", entity: { item: "rollout" }, tier: { qualifier: "EXACT_TIER", tier: "lead" } },
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "archivedTopic" } },
    { holder: { role: "eng" }, raci: "INFORMED", entity: { item: "oldStep" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "legacyTopic" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { item: "underArchived" } },
    { holder: { role: "sre" }, raci: "RESPONSIBLE", entity: { topic: "oncall" } },
    { holder: { role: "ops" }, raci: "ACCOUNTABLE", entity: { item: "fire" } },
    // Held by others than the role: never listed for it.
    { holder: { team: "ops" }, raci: "RESPONSIBLE", entity: { topic: "deploy" } },
    { holder: { person: "victor" }, raci: "RESPONSIBLE", entity: { topic: "deploy" } },
    { holder: { thirdParty: "vendor" }, raci: "CONSULTED", entity: { space: "platform" } }
  ]
}

const other: OrgFixtureInput = {
  organization: { name: "Other Roles Org" },
  people: [person("otto", "Otto Other", "admin")],
  companyRoles: [{ key: "otherRole", name: "Alpha Other" }]
}

const setup = Effect.runSync(Effect.cached(
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const main = yield* importer.importOrganization(acme)
    const second = yield* importer.importOrganization(other)
    const teams = main.ids.teams
    const actor = (key: string, role: OrgRole, teamList: Actor["teams"] = []): Actor => ({
      organizationId: main.organizationId,
      userId: main.ids.people[key]!,
      role,
      teams: teamList,
      scopes: [],
      tokenId: "test"
    })
    const callers = {
      owner: actor("olivia", "owner"),
      admin: actor("adam", "admin"),
      billingAdmin: actor("bella", "billing-admin"),
      viewer: actor("victor", "viewer", [{ teamId: teams.ops!, role: "team-admin" }]),
      loner: actor("liam", "viewer"),
      external: actor("ella", "external", [{ teamId: teams.ext!, role: "team-viewer" }]),
      otherOrgAdmin: {
        organizationId: second.organizationId,
        userId: second.ids.people.otto!,
        role: "admin" as const,
        teams: [],
        scopes: [],
        tokenId: "test"
      }
    }
    return { main, second, callers, roles: main.ids.companyRoles }
  }).pipe(Effect.orDie)
))

const service = CompanyRoles
const names = (rows: ReadonlyArray<CompanyRole>) => rows.map((row) => row.name)
const allNamesSorted = [
  "100% Sure_Thing",
  "Alpha",
  "Beta",
  "beta tester",
  "Engineer",
  "Operations Lead",
  "Site Reliability",
  "Under Study"
]

const walk = <A>(
  fetch: (cursor: string | undefined) => Effect.Effect<{ data: ReadonlyArray<A>; nextCursor: string | null }, unknown, CompanyRoles>
) =>
  Effect.gen(function*() {
    const seen: Array<A> = []
    const pages: Array<number> = []
    let cursor: string | undefined = undefined
    for (let i = 0; i < 200; i++) {
      const page: { data: ReadonlyArray<A>; nextCursor: string | null } = yield* fetch(cursor)
      seen.push(...page.data)
      pages.push(page.data.length)
      if (page.nextCursor === null) return { seen, pages }
      cursor = page.nextCursor
    }
    throw new Error("pagination did not end")
  })

layer(TestLayer)("company roles (SPEC 4.2, 2.3)", (it) => {
  describe("GET /v1/company-roles", () => {
    it.effect("every org role but external lists all the organization's roles alphabetically by name", () =>
      Effect.gen(function*() {
        const { callers } = yield* setup
        const roles = yield* service
        for (const caller of [callers.owner, callers.admin, callers.billingAdmin, callers.viewer, callers.loner]) {
          const page = yield* roles.list(caller, {})
          expect(names(page.data)).toEqual(allNamesSorted)
          expect(page.nextCursor).toBeNull()
        }
      }))

    it.effect("an external account is refused the list with 403", () =>
      Effect.gen(function*() {
        const { callers } = yield* setup
        const error = yield* Effect.flip((yield* service).list(callers.external, {}))
        expect(error._tag).toBe("Forbidden")
      }))

    it.effect("another organization's admin sees only their own organization's roles", () =>
      Effect.gen(function*() {
        const { callers } = yield* setup
        const page = yield* (yield* service).list(callers.otherOrgAdmin, {})
        expect(names(page.data)).toEqual(["Alpha Other"])
      }))

    it.effect("a role carries its fields; memberCount counts current holders who are active", () =>
      Effect.gen(function*() {
        const { callers, roles: ids } = yield* setup
        const page = yield* (yield* service).list(callers.admin, { query: "engineer" })
        expect(page.data).toHaveLength(1)
        const engineer = page.data[0]!
        expect(engineer).toMatchObject({
          id: ids.eng,
          name: "Engineer",
          description: "Builds and runs the platform",
          // victor, amy, ella; not dan (deactivated) nor ed (ended)
          memberCount: 3,
          parentRoleId: null
        })
        expect(engineer.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        expect(engineer.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        const sre = (yield* (yield* service).list(callers.admin, { query: "reliab" })).data[0]!
        expect(sre.parentRoleId).toBe(ids.eng)
        expect(sre.memberCount).toBe(1)
        expect(sre.description).toBeNull()
      }))

    it.effect("query is a case-insensitive substring of the name", () =>
      Effect.gen(function*() {
        const { callers } = yield* setup
        const roles = yield* service
        expect(names((yield* roles.list(callers.viewer, { query: "BETA" })).data)).toEqual(["Beta", "beta tester"])
        expect(names((yield* roles.list(callers.viewer, { query: "eR" })).data)).toEqual([
          "beta tester",
          "Engineer",
          "Operations Lead",
          "Under Study"
        ])
        expect((yield* roles.list(callers.viewer, { query: "nobody has this" })).data).toEqual([])
      }))

    it.effect("LIKE wildcards in the query match themselves", () =>
      Effect.gen(function*() {
        const { callers } = yield* setup
        const roles = yield* service
        expect(names((yield* roles.list(callers.viewer, { query: "%" })).data)).toEqual(["100% Sure_Thing"])
        expect(names((yield* roles.list(callers.viewer, { query: "_" })).data)).toEqual(["100% Sure_Thing"])
        expect(names((yield* roles.list(callers.viewer, { query: "e_t" })).data)).toEqual(["100% Sure_Thing"])
        expect((yield* roles.list(callers.viewer, { query: "\\" })).data).toEqual([])
      }))

    it.effect("pages of one walk the whole listing in order without duplicates", () =>
      Effect.gen(function*() {
        const { callers } = yield* setup
        const roles = yield* service
        for (const limit of [1, 3]) {
          const { seen } = yield* walk((cursor) => roles.list(callers.viewer, { cursor, limit }))
          expect(names(seen)).toEqual(allNamesSorted)
        }
        const filtered = yield* walk((cursor) => roles.list(callers.viewer, { query: "e", cursor, limit: 2 }))
        expect(names(filtered.seen)).toEqual(names((yield* roles.list(callers.viewer, { query: "e" })).data))
      }))

    it.effect("a cursor from another query, another organization or a tampered one is INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { callers } = yield* setup
        const roles = yield* service
        const first = yield* roles.list(callers.viewer, { limit: 1 })
        const cursor = first.nextCursor!
        for (
          const attempt of [
            roles.list(callers.viewer, { query: "e", cursor }),
            roles.list(callers.otherOrgAdmin, { cursor }),
            roles.list(callers.viewer, { cursor: `${cursor}x` }),
            roles.list(callers.viewer, { cursor: "garbage" })
          ]
        ) {
          const error = yield* Effect.flip(attempt)
          expect(error).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
        }
        // The same cursor from any caller of the same listing is fine (the list does not depend on the caller).
        const next = yield* roles.list(callers.admin, { cursor, limit: 1 })
        expect(names(next.data)).toEqual(["Alpha"])
      }))
  })

  describe("GET /v1/company-roles/{id}", () => {
    it.effect("an admin reads the role, its whole live curriculum in position order and its current holders by name", () =>
      Effect.gen(function*() {
        const { callers, roles: ids, main } = yield* setup
        for (const caller of [callers.owner, callers.admin, callers.billingAdmin]) {
          const role = yield* (yield* service).get(caller, ids.eng!)
          expect(role).toMatchObject({ id: ids.eng, name: "Engineer", memberCount: 3, parentRoleId: null })
          expect(role.curriculum).toEqual([
            { type: "lesson", id: main.ids.lessons.onboarding, name: "Onboarding" },
            { type: "topic", id: main.ids.topics.deploy, name: "Deployments" },
            { type: "lesson", id: main.ids.lessons.incident, name: "Incident command" },
            { type: "topic", id: main.ids.topics.oncall, name: "On-call" },
            // archivedTopic (archived) and legacyTopic (archived space) are out of the live graph
            { type: "lesson", id: main.ids.lessons.drills, name: "Team drills" },
            { type: "topic", id: main.ids.topics.keys, name: "Key rotation" }
          ])
          expect(role.members).toEqual([
            { id: main.ids.people.amy, name: "amy Holder" },
            { id: main.ids.people.ella, name: "Ella External" },
            { id: main.ids.people.victor, name: "Victor Viewer" }
          ])
        }
      }))

    it.effect("a viewer's curriculum leaves out what they cannot read; team visibility reaches team members", () =>
      Effect.gen(function*() {
        const { callers, roles: ids } = yield* setup
        const roles = yield* service
        const names = (entries: ReadonlyArray<{ name: string }>) => entries.map((entry) => entry.name)
        expect(names((yield* roles.get(callers.viewer, ids.eng!)).curriculum)).toEqual([
          "Onboarding",
          "Deployments",
          "On-call",
          "Team drills"
        ])
        expect(names((yield* roles.get(callers.loner, ids.eng!)).curriculum)).toEqual(["Onboarding", "Deployments"])
        expect((yield* roles.get(callers.loner, ids.eng!)).members).toHaveLength(3)
      }))

    it.effect("a role without curriculum or holders has empty arrays", () =>
      Effect.gen(function*() {
        const { callers, roles: ids } = yield* setup
        const role = yield* (yield* service).get(callers.viewer, ids.alpha!)
        expect(role.curriculum).toEqual([])
        expect(role.members).toEqual([])
        expect(role.memberCount).toBe(0)
      }))

    it.effect("404 for an external account, another organization's role and an unknown id", () =>
      Effect.gen(function*() {
        const { callers, roles: ids, second } = yield* setup
        const roles = yield* service
        for (
          const attempt of [
            roles.get(callers.external, ids.eng!),
            roles.get(callers.admin, second.ids.companyRoles.otherRole!),
            roles.get(callers.otherOrgAdmin, ids.eng!),
            roles.get(callers.admin, "rol_doesnotexist"),
            roles.get(callers.admin, "not even an id'; --")
          ]
        ) {
          expect((yield* Effect.flip(attempt))._tag).toBe("NotFound")
        }
      }))
  })
})
