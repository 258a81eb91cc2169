import { SqlClient } from "@effect/sql"
import { describe, expect, it as plainIt, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { DutyRow, EntityType, RaciRole } from "@tks/domain/duty"
import type { OrgRole } from "@tks/domain/roles"
import { TestDatabaseLive } from "@tks/db/test-database"
import { CompanyRoles } from "../src/company-roles/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { ImportResult, OrgFixtureInput } from "../src/org-import/schema.js"
import { Links } from "../src/shared/links.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, CompanyRoles.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const person = (key: string, name: string, role: OrgRole) => ({ key, name, email: `${key}@duties.test`, role })

const fixture: OrgFixtureInput = {
  organization: { name: "Duties Org" },
  people: [
    person("olivia", "Olivia Owner", "owner"),
    person("adam", "Adam Admin", "admin"),
    person("bella", "Bella Billing", "billing-admin"),
    person("victor", "Victor Viewer", "viewer"),
    person("liam", "Liam Loner", "viewer"),
    person("ella", "Ella External", "external")
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
      key: "buildings",
      category: "facilities",
      name: "Buildings",
      topics: [
        {
          key: "safety",
          name: "Safety",
          items: [
            { key: "fire", name: "Fire drill", kind: "process", children: [{ key: "warden", name: "Fire warden", kind: "fact" }] },
            { key: "firstAid", name: "First aid", kind: "fact" }
          ]
        }
      ]
    }
  ],
  companyRoles: [
    {
      key: "eng",
      name: "Engineer",
      tiers: [{ key: "associate", label: "Associate" }, { key: "senior", label: "Senior" }, { key: "lead", label: "Lead" }]
    },
    { key: "sre", name: "Site Reliability", parent: "eng" },
    { key: "facilities", name: "Facilities Lead" },
    { key: "idle", name: "Idle" }
  ],
  thirdParties: [{ key: "vendor", name: "Vendor" }],
  duties: [
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { category: "engineering" }, tier: { qualifier: "MIN_TIER", tier: "senior" } },
    { holder: { role: "eng" }, raci: "ACCOUNTABLE", entity: { space: "platform" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "deploy" } },
    { holder: { role: "eng" }, raci: "INFORMED", entity: { item: "rollout" }, tier: { qualifier: "EXACT_TIER", tier: "lead" } },
    // Out of the live graph: an archived topic, an archived item, a topic in an archived space, an item under an archived item.
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "archivedTopic" } },
    { holder: { role: "eng" }, raci: "INFORMED", entity: { item: "oldStep" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "legacyTopic" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { item: "underArchived" } },
    { holder: { role: "sre" }, raci: "RESPONSIBLE", entity: { topic: "oncall" } },
    { holder: { role: "facilities" }, raci: "ACCOUNTABLE", entity: { item: "fire" } },
    // Held by a team, a person and a third party: never listed for a role.
    { holder: { team: "ops" }, raci: "RESPONSIBLE", entity: { topic: "deploy" } },
    { holder: { person: "victor" }, raci: "INFORMED", entity: { space: "platform" } },
    { holder: { thirdParty: "vendor" }, raci: "CONSULTED", entity: { category: "engineering" } }
  ]
}

const other: OrgFixtureInput = {
  organization: { name: "Other Duties Org" },
  people: [person("otto", "Otto Other", "admin")]
}

const setup = Effect.runSync(Effect.cached(
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const main = yield* importer.importOrganization(fixture)
    const second = yield* importer.importOrganization(other)
    const actor = (key: string, role: OrgRole, teams: Actor["teams"] = []): Actor => ({
      organizationId: main.organizationId,
      userId: main.ids.people[key]!,
      role,
      teams,
      scopes: [],
      tokenId: "test"
    })
    const callers = {
      owner: actor("olivia", "owner"),
      admin: actor("adam", "admin"),
      billingAdmin: actor("bella", "billing-admin"),
      viewer: actor("victor", "viewer", [{ teamId: main.ids.teams.ops!, role: "team-admin" }]),
      loner: actor("liam", "viewer"),
      external: actor("ella", "external", [{ teamId: main.ids.teams.ext!, role: "team-viewer" }]),
      otherOrgAdmin: {
        organizationId: second.organizationId,
        userId: second.ids.people.otto!,
        role: "admin" as const,
        teams: [],
        scopes: [],
        tokenId: "test"
      } satisfies Actor
    }
    return { main, callers, roles: main.ids.companyRoles }
  }).pipe(Effect.orDie)
))

/** A duty row as a readable line: "TYPE name RACI <- TYPE key" (or "direct"), plus the tier when one applies. */
const line = (ids: ImportResult["ids"]) => {
  const keyOf = new Map<string, string>()
  for (const group of [ids.categories, ids.spaces, ids.topics, ids.items]) {
    for (const [key, id] of Object.entries(group)) keyOf.set(id, key)
  }
  const tierOf = new Map(Object.entries(ids.tiers).map(([key, id]) => [id, key]))
  return (row: DutyRow) => {
    const from = row.inheritedFrom === null ? "direct" : `<- ${row.inheritedFrom.entityType} ${keyOf.get(row.inheritedFrom.entityId)}`
    const tier = row.tierQualifier === "ALL" ? "" : ` [${row.tierQualifier} ${tierOf.get(row.advancementTierId!)} ${row.advancementTierLabel}]`
    return `${row.entityType} ${row.entityName} ${row.role} ${from}${tier}`
  }
}

const R = "RESPONSIBLE", A = "ACCOUNTABLE", C = "CONSULTED", I = "INFORMED"
const viaCategory = (type: EntityType, name: string) => `${type} ${name} ${R} <- CATEGORY engineering [MIN_TIER senior Senior]`
const viaSpace = (type: EntityType, name: string) => `${type} ${name} ${A} <- SPACE platform`
const viaTopic = (name: string) => `ITEM ${name} ${C} <- TOPIC deploy`
const viaRollout = (name: string) => `ITEM ${name} ${I} <- ITEM rollout [EXACT_TIER lead Lead]`

/** Everything the Engineer role's duties reach, in listing order, for an organization admin. */
const engineerForAdmin = [
  viaCategory("TOPIC", "Deployments"),
  viaSpace("TOPIC", "Deployments"),
  `TOPIC Deployments ${C} direct`,
  viaCategory("TOPIC", "Key rotation"),
  viaCategory("TOPIC", "On-call"),
  viaCategory("ITEM", "Canary metrics"),
  viaSpace("ITEM", "Canary metrics"),
  viaTopic("Canary metrics"),
  viaRollout("Canary metrics"),
  viaCategory("ITEM", "Canary step"),
  viaSpace("ITEM", "Canary step"),
  viaTopic("Canary step"),
  viaRollout("Canary step"),
  viaCategory("ITEM", "hotfix policy"),
  viaSpace("ITEM", "hotfix policy"),
  viaTopic("hotfix policy"),
  viaCategory("ITEM", "Pager rotation"),
  viaCategory("ITEM", "Rollout checklist"),
  viaSpace("ITEM", "Rollout checklist"),
  viaTopic("Rollout checklist"),
  `ITEM Rollout checklist ${I} direct [EXACT_TIER lead Lead]`,
  viaCategory("ITEM", "Vault access"),
  viaCategory("SPACE", "Platform"),
  `SPACE Platform ${A} direct`,
  viaCategory("SPACE", "Secrets"),
  viaCategory("SPACE", "Team Runbooks"),
  `CATEGORY Engineering ${R} direct [MIN_TIER senior Senior]`
]
const adminOnly = ["Key rotation", "Vault access", "Secrets"]
const teamOnly = ["On-call", "Pager rotation", "Team Runbooks"]
const named = (names: ReadonlyArray<string>) => (entry: string) => names.some((name) => entry.includes(` ${name} `))
const engineerForTeamMember = engineerForAdmin.filter((entry) => !named(adminOnly)(entry))
const engineerForLoner = engineerForTeamMember.filter((entry) => !named(teamOnly)(entry))

const duties = (actor: Actor, roleId: string, params: { entityType?: EntityType; cursor?: string; limit?: number } = {}) =>
  CompanyRoles.pipe(Effect.flatMap((roles) => roles.listDuties(actor, roleId, params)))

const walk = (actor: Actor, roleId: string, params: { entityType?: EntityType; limit: number }) =>
  Effect.gen(function*() {
    const seen: Array<DutyRow> = []
    let cursor: string | undefined = undefined
    for (let i = 0; i < 200; i++) {
      const page: { data: ReadonlyArray<DutyRow>; nextCursor: string | null } = yield* duties(actor, roleId, {
        ...params,
        ...(cursor === undefined ? {} : { cursor })
      })
      expect(page.data.length).toBeLessThanOrEqual(params.limit)
      seen.push(...page.data)
      if (page.nextCursor === null) return seen
      expect(page.data.length).toBe(params.limit)
      cursor = page.nextCursor
    }
    throw new Error("pagination did not end")
  })

layer(TestLayer)("company role duties (SPEC 4.2, 2.4)", (it) => {
  it.effect("an organization admin gets every duty expanded over the live graph, ordered TOPIC, ITEM, SPACE, CATEGORY then name", () =>
    Effect.gen(function*() {
      const { main, callers, roles } = yield* setup
      for (const caller of [callers.owner, callers.admin, callers.billingAdmin]) {
        const page = yield* duties(caller, roles.eng!)
        expect(page.data.map(line(main.ids))).toEqual(engineerForAdmin)
        expect(page.nextCursor).toBeNull()
      }
    }))

  it.effect("a viewer sees only duties on what they can read: team spaces of their teams, never admins-only spaces", () =>
    Effect.gen(function*() {
      const { main, callers, roles } = yield* setup
      expect((yield* duties(callers.viewer, roles.eng!)).data.map(line(main.ids))).toEqual(engineerForTeamMember)
      expect((yield* duties(callers.loner, roles.eng!)).data.map(line(main.ids))).toEqual(engineerForLoner)
      // The SRE duty sits on a topic of a team space only.
      expect((yield* duties(callers.viewer, roles.sre!)).data.map(line(main.ids))).toEqual([
        `TOPIC On-call ${R} direct`,
        `ITEM Pager rotation ${R} <- TOPIC oncall`
      ])
      expect((yield* duties(callers.loner, roles.sre!)).data).toEqual([])
    }))

  it.effect("an item duty reaches the item's child items, each inheritedFrom the item", () =>
    Effect.gen(function*() {
      const { main, callers, roles } = yield* setup
      expect((yield* duties(callers.loner, roles.facilities!)).data.map(line(main.ids))).toEqual([
        `ITEM Fire drill ${A} direct`,
        `ITEM Fire warden ${A} <- ITEM fire`
      ])
    }))

  it.effect("a row carries ids, the web link and the tier fields; advancementTierId only when a tier applies", () =>
    Effect.gen(function*() {
      const { main, callers, roles } = yield* setup
      const page = yield* duties(callers.admin, roles.eng!)
      expect(page.data[0]).toEqual({
        role: "RESPONSIBLE",
        entityType: "TOPIC",
        entityId: main.ids.topics.deploy,
        entityName: "Deployments",
        inheritedFrom: { entityType: "CATEGORY", entityId: main.ids.categories.engineering },
        tierQualifier: "MIN_TIER",
        advancementTierId: main.ids.tiers.senior,
        advancementTierLabel: "Senior",
        url: `http://localhost:3000/v1/topics/${main.ids.topics.deploy}`
      })
      const direct = page.data[2]!
      expect(direct).toEqual({
        role: "CONSULTED",
        entityType: "TOPIC",
        entityId: main.ids.topics.deploy,
        entityName: "Deployments",
        inheritedFrom: null,
        tierQualifier: "ALL",
        advancementTierLabel: null,
        url: `http://localhost:3000/v1/topics/${main.ids.topics.deploy}`
      })
      expect(Object.keys(direct)).not.toContain("advancementTierId")
      const urls = new Map(page.data.map((row) => [row.entityId, row.url]))
      expect(urls.get(main.ids.items.rollout!)).toBe(`http://localhost:3000/v1/items/${main.ids.items.rollout}`)
      expect(urls.get(main.ids.spaces.platform!)).toBe(`http://localhost:3000/v1/spaces/${main.ids.spaces.platform}`)
      expect(urls.get(main.ids.categories.engineering!)).toBe(
        `http://localhost:3000/v1/categories/${main.ids.categories.engineering}`
      )
    }))

  it.effect("entityType keeps the rows of that entity type, inherited ones included", () =>
    Effect.gen(function*() {
      const { main, callers, roles } = yield* setup
      for (const type of ["TOPIC", "ITEM", "SPACE", "CATEGORY"] as const) {
        const page = yield* duties(callers.admin, roles.eng!, { entityType: type })
        expect(page.data.map(line(main.ids))).toEqual(engineerForAdmin.filter((entry) => entry.startsWith(`${type} `)))
      }
    }))

  it.effect("pages of any size walk the same rows in the same order, without duplicates", () =>
    Effect.gen(function*() {
      const { main, callers, roles } = yield* setup
      for (const limit of [1, 2, 5, 26, 27]) {
        const rows = yield* walk(callers.admin, roles.eng!, { limit })
        expect(rows.map(line(main.ids))).toEqual(engineerForAdmin)
      }
      const items = yield* walk(callers.viewer, roles.eng!, { entityType: "ITEM", limit: 3 })
      expect(items.map(line(main.ids))).toEqual(engineerForTeamMember.filter((entry) => entry.startsWith("ITEM ")))
    }))

  it.effect("a role without duties lists nothing", () =>
    Effect.gen(function*() {
      const { callers, roles } = yield* setup
      expect(yield* duties(callers.admin, roles.idle!)).toEqual({ data: [], nextCursor: null })
    }))

  it.effect("404 for an external account, another organization's role and an unknown id", () =>
    Effect.gen(function*() {
      const { callers, roles } = yield* setup
      for (
        const attempt of [
          duties(callers.external, roles.eng!),
          duties(callers.otherOrgAdmin, roles.eng!),
          duties(callers.admin, "rol_unknown"),
          duties(callers.admin, "no such id")
        ]
      ) {
        expect((yield* Effect.flip(attempt))._tag).toBe("NotFound")
      }
    }))

  it.effect("a cursor is bound to its listing: another entityType, caller or role, or a tampered cursor is INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { callers, roles } = yield* setup
      const cursor = (yield* duties(callers.admin, roles.eng!, { limit: 2 })).nextCursor!
      const [payload, signature] = cursor.split(".")
      const forged = `${Buffer.from(JSON.stringify([9, "x", "y", 0, "", "z"])).toString("base64url")}.${signature}`
      for (
        const attempt of [
          duties(callers.admin, roles.eng!, { cursor, entityType: "TOPIC" }),
          duties(callers.owner, roles.eng!, { cursor }),
          duties(callers.admin, roles.sre!, { cursor }),
          duties(callers.admin, roles.eng!, { cursor: `${payload}.AAAA${signature!.slice(4)}` }),
          duties(callers.admin, roles.eng!, { cursor: forged }),
          duties(callers.admin, roles.eng!, { cursor: "not-a-cursor" })
        ]
      ) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }
    }))

  it.effect("a role without an advancement path reports ALL whatever qualifier is stored", () =>
    Effect.gen(function*() {
      const { main, callers, roles } = yield* setup
      const sql = yield* SqlClient.SqlClient
      // Stored against a tier of another role's path: "facilities" has no path of its own.
      yield* sql`INSERT INTO duties (org_id, id, raci, entity_type, entity_id, holder_type, holder_id, tier_qualifier, tier_id)
        VALUES (${main.organizationId}, 'dty_stored_min_tier', 'INFORMED', 'ITEM', ${main.ids.items.firstAid}, 'role',
                ${roles.facilities}, 'MIN_TIER', ${main.ids.tiers.senior})`
      const page = yield* duties(callers.admin, roles.facilities!, { entityType: "ITEM" })
      const firstAid = page.data.find((row) => row.entityId === main.ids.items.firstAid)!
      expect(firstAid).toEqual({
        role: I,
        entityType: "ITEM",
        entityId: main.ids.items.firstAid,
        entityName: "First aid",
        inheritedFrom: null,
        tierQualifier: "ALL",
        advancementTierLabel: null,
        url: `http://localhost:3000/v1/items/${main.ids.items.firstAid}`
      })
      expect(Object.keys(firstAid)).not.toContain("advancementTierId")
      yield* sql`DELETE FROM duties WHERE org_id = ${main.organizationId} AND id = 'dty_stored_min_tier'`
    }))
})

describe("web links", () => {
  const linksFrom = (env: ReadonlyArray<readonly [string, string]>) =>
    Links.pipe(Effect.provide(Links.Default), Effect.withConfigProvider(ConfigProvider.fromMap(new Map(env))))
  const linksWith = (publicUrl: string) => linksFrom([["PUBLIC_URL", publicUrl], ["PORT", "9999"]])

  plainIt.effect("links are PUBLIC_URL (trailing slash dropped) + /v1/<collection>/<id>", () =>
    Effect.gen(function*() {
      const links = yield* linksWith("https://tks.example.com/")
      expect(links.entity("TOPIC", "top_1")).toBe("https://tks.example.com/v1/topics/top_1")
      expect(links.entity("ITEM", "itm_1")).toBe("https://tks.example.com/v1/items/itm_1")
      expect(links.entity("SPACE", "spc_1")).toBe("https://tks.example.com/v1/spaces/spc_1")
      expect(links.entity("CATEGORY", "cat_1")).toBe("https://tks.example.com/v1/categories/cat_1")
      expect(links.lesson("les_1")).toBe("https://tks.example.com/v1/lessons/les_1")
    }))

  plainIt.effect("without PUBLIC_URL links use http://localhost:$PORT, PORT defaulting to 3000", () =>
    Effect.gen(function*() {
      expect((yield* linksFrom([["PORT", "8080"]])).topic("top_1")).toBe("http://localhost:8080/v1/topics/top_1")
      expect((yield* linksFrom([])).topic("top_1")).toBe("http://localhost:3000/v1/topics/top_1")
    }))

  plainIt.effect("PUBLIC_URL that is not an http(s) address is refused", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(linksWith("not a url"))
      expect(Exit.isFailure(exit)).toBe(true)
    }))
})

// Keep the RACI shorthands honest.
const raciOrder: ReadonlyArray<RaciRole> = [R, A, C, I]
plainIt("RACI shorthands name the four roles in SPEC order", () => {
  expect(raciOrder).toEqual(["RESPONSIBLE", "ACCOUNTABLE", "CONSULTED", "INFORMED"])
})
