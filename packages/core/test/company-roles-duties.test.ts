import { SqlClient } from "@effect/sql"
import { expect, it as plainIt, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { CompanyRoleDutiesParams } from "@tks/domain/company-role"
import type { DutyRow, EntityType, RaciRole } from "@tks/domain/duty"
import { CompanyRoleId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { CompanyRoles } from "../src/company-roles/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { ImportResult } from "../src/org-import/schema.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, CompanyRoles.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

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

const duties = (org: Imported, key: string, roleId: CompanyRoleId, params: CompanyRoleDutiesParams = {}) =>
  CompanyRoles.pipe(Effect.flatMap((roles) => roles.listDuties(org.access(key, policies.companyRoles.duties), roleId, params)))

const walk = (org: Imported, key: string, roleId: CompanyRoleId, params: { entityType?: EntityType; limit: number }) =>
  Effect.gen(function*() {
    const seen: Array<DutyRow> = []
    let cursor: string | undefined = undefined
    for (let i = 0; i < 200; i++) {
      const page: { data: ReadonlyArray<DutyRow>; nextCursor: string | null } = yield* duties(org, key, roleId, {
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

layer(TestLayer)("company role duties", (it) => {
  it.effect("an organization admin gets every duty expanded over the live graph, ordered TOPIC, ITEM, SPACE, CATEGORY then name", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* duties(acme, "bella", acme.roleId("eng"))
      expect(page.data.map(line(acme.ids))).toEqual(engineerForAdmin)
      expect(page.nextCursor).toBeNull()
    }))

  it.effect("a viewer sees only duties on what they can read: team spaces of their teams, never admins-only spaces", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect((yield* duties(acme, "victor", acme.roleId("eng"))).data.map(line(acme.ids))).toEqual(engineerForTeamMember)
      expect((yield* duties(acme, "liam", acme.roleId("eng"))).data.map(line(acme.ids))).toEqual(engineerForLoner)
      // The SRE duty sits on a topic of a team space only.
      expect((yield* duties(acme, "victor", acme.roleId("sre"))).data.map(line(acme.ids))).toEqual([
        `TOPIC On-call ${R} direct`,
        `ITEM Pager rotation ${R} <- TOPIC oncall`
      ])
      expect((yield* duties(acme, "liam", acme.roleId("sre"))).data).toEqual([])
    }))

  it.effect("an item duty reaches the item's child items, each inheritedFrom the item", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect((yield* duties(acme, "liam", acme.roleId("facilities"))).data.map(line(acme.ids))).toEqual([
        `ITEM Fire drill ${A} direct`,
        `ITEM Fire warden ${A} <- ITEM fire`
      ])
    }))

  it.effect("advancementTierId and its label only when a tier applies; each row links to its entity by type", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* duties(acme, "adam", acme.roleId("eng"))
      for (const row of page.data) {
        if (row.tierQualifier === "ALL") {
          expect(Object.keys(row)).not.toContain("advancementTierId")
          expect(row.advancementTierLabel).toBeNull()
        } else {
          expect(row.advancementTierId).toBe(row.tierQualifier === "MIN_TIER" ? acme.ids.tiers.senior : acme.ids.tiers.lead)
          expect(row.advancementTierLabel).toBe(row.tierQualifier === "MIN_TIER" ? "Senior" : "Lead")
        }
      }
      const urls = new Map(page.data.map((row) => [row.entityId, row.url]))
      expect(urls.get(acme.ids.topics.deploy!)).toBe(`http://localhost:3000/v1/topics/${acme.ids.topics.deploy}`)
      expect(urls.get(acme.ids.items.rollout!)).toBe(`http://localhost:3000/v1/items/${acme.ids.items.rollout}`)
      expect(urls.get(acme.ids.spaces.platform!)).toBe(`http://localhost:3000/v1/spaces/${acme.ids.spaces.platform}`)
      expect(urls.get(acme.ids.categories.engineering!)).toBe(
        `http://localhost:3000/v1/categories/${acme.ids.categories.engineering}`
      )
    }))

  it.effect("entityType keeps the rows of that entity type, inherited ones included", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      for (const type of ["TOPIC", "ITEM", "SPACE", "CATEGORY"] as const) {
        const page = yield* duties(acme, "adam", acme.roleId("eng"), { entityType: type })
        expect(page.data.map(line(acme.ids))).toEqual(engineerForAdmin.filter((entry) => entry.startsWith(`${type} `)))
      }
    }))

  it.effect("pages of any size walk the same rows in the same order, without duplicates", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      for (const limit of [1, 2, 5, 26, 27]) {
        const rows = yield* walk(acme, "adam", acme.roleId("eng"), { limit })
        expect(rows.map(line(acme.ids))).toEqual(engineerForAdmin)
      }
      const items = yield* walk(acme, "victor", acme.roleId("eng"), { entityType: "ITEM", limit: 3 })
      expect(items.map(line(acme.ids))).toEqual(engineerForTeamMember.filter((entry) => entry.startsWith("ITEM ")))
    }))

  it.effect("a role without duties lists nothing", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(yield* duties(acme, "adam", acme.roleId("idle"))).toEqual({ data: [], nextCursor: null })
    }))

  it.effect("a role whose duties sit only on archived or superseded records lists nothing", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // An archived topic, a superseded item and an archived space.
      expect(yield* duties(acme, "adam", acme.roleId("legacyKeeper"))).toEqual({ data: [], nextCursor: null })
    }))

  it.effect("404 for a role read from another organization and for an unknown id", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      for (
        const attempt of [
          duties(other, "otto", acme.roleId("eng")),
          duties(acme, "adam", CompanyRoleId.make("rol_unknown")),
          duties(acme, "adam", CompanyRoleId.make("no such id"))
        ]
      ) {
        expect((yield* Effect.flip(attempt))._tag).toBe("NotFound")
      }
    }))

  it.effect("a cursor is bound to its listing: another entityType, caller or role, or a tampered cursor is INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const cursor = (yield* duties(acme, "adam", acme.roleId("eng"), { limit: 2 })).nextCursor!
      const [payload, signature] = cursor.split(".")
      const forged = `${Buffer.from(JSON.stringify([9, "x", "y", 0, "", "z"])).toString("base64url")}.${signature}`
      for (
        const attempt of [
          duties(acme, "adam", acme.roleId("eng"), { cursor, entityType: "TOPIC" }),
          duties(acme, "olivia", acme.roleId("eng"), { cursor }),
          duties(acme, "adam", acme.roleId("sre"), { cursor }),
          duties(acme, "adam", acme.roleId("eng"), { cursor: `${payload}.AAAA${signature!.slice(4)}` }),
          duties(acme, "adam", acme.roleId("eng"), { cursor: forged }),
          duties(acme, "adam", acme.roleId("eng"), { cursor: "not-a-cursor" })
        ]
      ) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }
    }))

  it.effect("a role without an advancement path reports ALL whatever qualifier is stored", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const sql = yield* SqlClient.SqlClient
      // Stored against a tier of another role's path: "facilities" has no path of its own.
      yield* sql`INSERT INTO duties (org_id, id, raci, entity_type, entity_id, holder_type, holder_id, tier_qualifier, tier_id)
        VALUES (${acme.organizationId}, 'dty_stored_min_tier', 'INFORMED', 'ITEM', ${acme.ids.items.firstAid}, 'role',
                ${acme.roleId("facilities")}, 'MIN_TIER', ${acme.ids.tiers.senior})`
      const page = yield* duties(acme, "adam", acme.roleId("facilities"), { entityType: "ITEM" })
      const firstAid = page.data.find((row) => row.entityId === acme.ids.items.firstAid)!
      expect(firstAid).toEqual({
        role: I,
        entityType: "ITEM",
        entityId: acme.ids.items.firstAid,
        entityName: "First aid",
        inheritedFrom: null,
        tierQualifier: "ALL",
        advancementTierLabel: null,
        url: `http://localhost:3000/v1/items/${acme.ids.items.firstAid}`
      })
      expect(Object.keys(firstAid)).not.toContain("advancementTierId")
      yield* sql`DELETE FROM duties WHERE org_id = ${acme.organizationId} AND id = 'dty_stored_min_tier'`
    }))
})

// Keep the RACI shorthands honest.
const raciOrder: ReadonlyArray<RaciRole> = [R, A, C, I]
plainIt("RACI shorthands name the four roles in RACI order", () => {
  expect(raciOrder).toEqual(["RESPONSIBLE", "ACCOUNTABLE", "CONSULTED", "INFORMED"])
})
