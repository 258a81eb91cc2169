import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { DutyRow, EntityType } from "@tks/domain/duty"
import { ThirdPartyId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import type { ThirdPartyDutiesParams } from "@tks/domain/third-party"
import { acme, other } from "@tks/core/testing/organizations"
import { FixtureImporter } from "../src/org-import/importer.js"
import { ThirdParties } from "../src/third-parties/service.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, ThirdParties.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const partyId = (org: Imported, key: string) => ThirdPartyId.make(org.ids.thirdParties[key]!)

/** "TYPE name RACI direct|<- TYPE name-of-ancestor-key", readable in a failing diff. */
const line = (org: Imported) => {
  const keyOf = new Map<string, string>()
  for (const group of [org.ids.categories, org.ids.spaces, org.ids.topics, org.ids.items]) {
    for (const [key, id] of Object.entries(group)) keyOf.set(id, key)
  }
  return (row: DutyRow) =>
    `${row.entityType} ${row.entityName} ${row.role} ${
      row.inheritedFrom === null ? "direct" : `<- ${row.inheritedFrom.entityType} ${keyOf.get(row.inheritedFrom.entityId)}`
    }`
}

/** The auditor's duties for an organization admin: TOPIC, ITEM, SPACE, CATEGORY, then name, then RACI. */
const auditorForAdmin = [
  "TOPIC Deployments ACCOUNTABLE <- SPACE platform",
  "TOPIC Key rotation INFORMED direct",
  "ITEM Canary metrics RESPONSIBLE <- ITEM rollout",
  "ITEM Canary metrics ACCOUNTABLE <- SPACE platform",
  "ITEM Canary metrics INFORMED <- ITEM canary",
  "ITEM Canary step RESPONSIBLE <- ITEM rollout",
  "ITEM Canary step ACCOUNTABLE <- SPACE platform",
  "ITEM Canary step INFORMED direct",
  "ITEM hotfix policy ACCOUNTABLE <- SPACE platform",
  "ITEM Rollout checklist RESPONSIBLE direct",
  "ITEM Rollout checklist ACCOUNTABLE <- SPACE platform",
  "ITEM Vault access INFORMED <- TOPIC keys",
  "SPACE Platform ACCOUNTABLE direct"
]
/** Key rotation and Vault access sit in Secrets, a space for organization admins only. */
const auditorForViewer = auditorForAdmin.filter((entry) => !entry.includes("Key rotation") && !entry.includes("Vault access"))

const duties = (org: Imported, key: string, id: ThirdPartyId, params: ThirdPartyDutiesParams = {}) =>
  ThirdParties.pipe(Effect.flatMap((parties) => parties.duties(org.access(key, policies.thirdParties.duties), id, params)))

const walk = (org: Imported, key: string, id: ThirdPartyId, params: { entityType?: EntityType; limit: number }) =>
  Effect.gen(function*() {
    const seen: Array<DutyRow> = []
    let cursor: string | undefined = undefined
    for (let i = 0; i < 50; i++) {
      const page: { data: ReadonlyArray<DutyRow>; nextCursor: string | null } = yield* duties(org, key, id, {
        ...params,
        ...(cursor === undefined ? {} : { cursor })
      })
      seen.push(...page.data)
      if (page.nextCursor === null) return { seen, pages: i + 1 }
      expect(page.data.length).toBe(params.limit)
      cursor = page.nextCursor
    }
    throw new Error("pagination did not end")
  })

layer(TestLayer)("third parties", (it) => {
  it.effect("the list holds the organization's third parties by name, case-insensitively, each with its direct duty count and link", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const parties = yield* ThirdParties
      const list = yield* parties.list(acme.access("victor", policies.thirdParties.list))
      expect(list.nextCursor).toBeNull()
      expect(list.data.map((party) => [party.name, party.dutyCount])).toEqual([
        ["Idle Partner", 0],
        ["northwind Audit", 5],
        ["Vendor", 1]
      ])
      const auditor = list.data[1]!
      expect(auditor).toEqual({
        id: partyId(acme, "auditor"),
        name: "northwind Audit",
        description: "Audits the release process once a year",
        dutyCount: 5,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        url: `http://localhost:3000/v1/third-parties/${partyId(acme, "auditor")}`
      })
      expect(list.data[0]!.description).toBeNull()
      const others = yield* parties.list(other.access("otto", policies.thirdParties.list))
      expect(others.data.map((party) => party.name)).toEqual(["Other Vendor"])
    }))

  it.effect("a third party's detail counts its direct duties per RACI role, those off the live graph included", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const parties = yield* ThirdParties
      const detail = yield* parties.get(acme.access("liam", policies.thirdParties.get), partyId(acme, "auditor"))
      expect(detail.name).toBe("northwind Audit")
      expect(detail.dutyCount).toBe(5)
      expect(detail.raciSummary).toEqual({ RESPONSIBLE: 1, ACCOUNTABLE: 1, CONSULTED: 1, INFORMED: 2 })
      const idle = yield* parties.get(acme.access("liam", policies.thirdParties.get), partyId(acme, "idleParty"))
      expect(idle.raciSummary).toEqual({ RESPONSIBLE: 0, ACCOUNTABLE: 0, CONSULTED: 0, INFORMED: 0 })
    }))

  it.effect("another organization's third party and an unknown id are NotFound 'No such third party', for the detail and the duties", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const parties = yield* ThirdParties
      const foreign = partyId(other, "otherVendor")
      const attempts: ReadonlyArray<Effect.Effect<unknown, unknown, ThirdParties>> = [
        parties.get(acme.access("adam", policies.thirdParties.get), foreign),
        parties.get(acme.access("adam", policies.thirdParties.get), ThirdPartyId.make("tp_unknown")),
        duties(acme, "adam", foreign),
        duties(other, "otto", partyId(acme, "auditor"))
      ]
      for (const attempt of attempts) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "NotFound", message: "No such third party" })
      }
    }))

  it.effect("duties are the company-role listing for the third party: expanded over the live graph, ordered, every row ALL", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* duties(acme, "adam", partyId(acme, "auditor"))
      expect(page.data.map(line(acme))).toEqual(auditorForAdmin)
      expect(page.nextCursor).toBeNull()
      for (const row of page.data) {
        expect(row.tierQualifier).toBe("ALL")
        expect(row.advancementTierLabel).toBeNull()
        expect(Object.keys(row)).not.toContain("advancementTierId")
      }
      expect(page.data.at(-1)!.url).toBe(`http://localhost:3000/v1/spaces/${acme.ids.spaces.platform}`)
    }))

  it.effect("a viewer sees only duties on entities they can read", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect((yield* duties(acme, "victor", partyId(acme, "auditor"))).data.map(line(acme))).toEqual(auditorForViewer)
      // The vendor's category duty reaches Team Runbooks only for its teams' members, Secrets only for admins.
      const vendorForLoner = (yield* duties(acme, "liam", partyId(acme, "vendor"))).data.map((row) => row.entityName)
      expect(vendorForLoner).toEqual(["Deployments", "Canary metrics", "Canary step", "hotfix policy", "Rollout checklist", "Platform", "Engineering"])
    }))

  it.effect("entityType keeps one type; pages of any size walk the same rows once, in order", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const auditor = partyId(acme, "auditor")
      const items = yield* duties(acme, "adam", auditor, { entityType: "ITEM" })
      expect(items.data.map(line(acme))).toEqual(auditorForAdmin.filter((entry) => entry.startsWith("ITEM ")))
      for (const limit of [1, 5, 12, 13]) {
        const { pages, seen } = yield* walk(acme, "adam", auditor, { limit })
        expect(seen.map(line(acme)), `limit ${limit}`).toEqual(auditorForAdmin)
        expect(pages, `limit ${limit}`).toBe(Math.ceil(auditorForAdmin.length / limit))
      }
      const { seen } = yield* walk(acme, "victor", auditor, { entityType: "ITEM", limit: 2 })
      expect(seen.map(line(acme))).toEqual(auditorForViewer.filter((entry) => entry.startsWith("ITEM ")))
    }))

  it.effect("a third party without duties lists nothing; a cursor is bound to its third party, caller and entityType", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(yield* duties(acme, "adam", partyId(acme, "idleParty"))).toEqual({ data: [], nextCursor: null })
      const cursor = (yield* duties(acme, "adam", partyId(acme, "auditor"), { limit: 2 })).nextCursor!
      for (
        const attempt of [
          duties(acme, "adam", partyId(acme, "vendor"), { cursor }),
          duties(acme, "olivia", partyId(acme, "auditor"), { cursor }),
          duties(acme, "adam", partyId(acme, "auditor"), { cursor, entityType: "TOPIC" })
        ]
      ) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }
    }))
})
