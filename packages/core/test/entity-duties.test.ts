import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { EntityDutiesParams, EntityDutyRow, EntityType } from "@tks/domain/duty"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { EntityDuties } from "../src/duties/entity-duties.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, EntityDuties.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const collection: Record<EntityType, "topics" | "items" | "spaces" | "categories"> = {
  TOPIC: "topics",
  ITEM: "items",
  SPACE: "spaces",
  CATEGORY: "categories"
}
const idOf = (org: Imported, type: EntityType, key: string) => org.ids[collection[type]][key]!

/** "holder-type Holder name RACI direct|<- TYPE key [qualifier tier-label]", readable in a failing diff. */
const line = (org: Imported) => {
  const keyOf = new Map<string, string>()
  for (const group of [org.ids.categories, org.ids.spaces, org.ids.topics, org.ids.items]) {
    for (const [key, id] of Object.entries(group)) keyOf.set(id, key)
  }
  return (row: EntityDutyRow) => {
    const from = row.inheritedFrom === null ? "direct" : `<- ${row.inheritedFrom.entityType} ${keyOf.get(row.inheritedFrom.entityId)}`
    const tier = row.tierQualifier === "ALL" ? "" : ` [${row.tierQualifier} ${row.advancementTierLabel}]`
    return `${row.holder.type} ${row.holder.name} ${row.role} ${from}${tier}`
  }
}

const forEntity = (org: Imported, key: string, params: EntityDutiesParams) =>
  EntityDuties.pipe(Effect.flatMap((duties) => duties.forEntity(org.access(key, policies.duties.entity), params)))

const on = (org: Imported, caller: string, type: EntityType, entity: string) =>
  forEntity(org, caller, { entityType: type, entityId: idOf(org, type, entity) })

/** What reaches Platform's space, and its Engineering category, in every listing below. */
const fromSpace = [
  "role Engineer ACCOUNTABLE <- SPACE platform",
  "third_party northwind Audit ACCOUNTABLE <- SPACE platform",
  "person Victor Viewer INFORMED <- SPACE platform"
]
const fromCategory = [
  "role Engineer RESPONSIBLE <- CATEGORY engineering [MIN_TIER Senior]",
  "third_party Vendor CONSULTED <- CATEGORY engineering"
]

layer(TestLayer)("duties on one entity, inherited included", (it) => {
  it.effect("an item under an item under a topic: direct first, then parent items nearest first, the topic, the space, the category", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const result = yield* on(acme, "adam", "ITEM", "canary")
      expect(result).toMatchObject({ entityType: "ITEM", entityId: acme.ids.items.canary, entityName: "Canary step", nextCursor: null })
      expect(result.data.map(line(acme))).toEqual([
        "third_party northwind Audit INFORMED direct",
        "third_party northwind Audit RESPONSIBLE <- ITEM rollout",
        "role Engineer INFORMED <- ITEM rollout [EXACT_TIER Lead]",
        "team Ops RESPONSIBLE <- TOPIC deploy",
        "role Engineer CONSULTED <- TOPIC deploy",
        ...fromSpace,
        ...fromCategory
      ])
      // One level further down, the same duties all come through ancestors.
      const metrics = yield* on(acme, "adam", "ITEM", "canaryMetrics")
      expect(metrics.data.map(line(acme)).slice(0, 3)).toEqual([
        "third_party northwind Audit INFORMED <- ITEM canary",
        "third_party northwind Audit RESPONSIBLE <- ITEM rollout",
        "role Engineer INFORMED <- ITEM rollout [EXACT_TIER Lead]"
      ])
      expect(metrics.data).toHaveLength(10)
    }))

  it.effect("a topic, a space and a category list their own duties and those above them", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect((yield* on(acme, "victor", "TOPIC", "deploy")).data.map(line(acme))).toEqual([
        "team Ops RESPONSIBLE direct",
        "role Engineer CONSULTED direct",
        ...fromSpace,
        ...fromCategory
      ])
      const space = yield* on(acme, "victor", "SPACE", "platform")
      expect(space.entityName).toBe("Platform")
      expect(space.data.map(line(acme))).toEqual([...fromSpace, ...fromCategory].map((entry) => entry.replace(/<- SPACE platform/, "direct")))
      const category = yield* on(acme, "victor", "CATEGORY", "engineering")
      expect(category.entityName).toBe("Engineering")
      expect(category.data.map(line(acme))).toEqual(fromCategory.map((entry) => entry.replace(/<- CATEGORY engineering/, "direct")))
    }))

  it.effect("each row names its holder by type, id and name; tier fields only for a role with an advancement path", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const rows = (yield* on(acme, "adam", "TOPIC", "deploy")).data
      expect(rows.map((row) => row.holder)).toEqual([
        { type: "team", id: acme.teamId("ops"), name: "Ops" },
        { type: "role", id: acme.roleId("eng"), name: "Engineer" },
        { type: "role", id: acme.roleId("eng"), name: "Engineer" },
        { type: "third_party", id: acme.ids.thirdParties.auditor, name: "northwind Audit" },
        { type: "person", id: acme.userId("victor"), name: "Victor Viewer" },
        { type: "role", id: acme.roleId("eng"), name: "Engineer" },
        { type: "third_party", id: acme.ids.thirdParties.vendor, name: "Vendor" }
      ])
      expect(rows.at(-2)).toEqual({
        holder: { type: "role", id: acme.roleId("eng"), name: "Engineer" },
        role: "RESPONSIBLE",
        inheritedFrom: { entityType: "CATEGORY", entityId: acme.ids.categories.engineering },
        tierQualifier: "MIN_TIER",
        advancementTierId: acme.ids.tiers.senior,
        advancementTierLabel: "Senior"
      })
      for (const row of rows.filter((row) => row.tierQualifier === "ALL")) {
        expect(Object.keys(row)).not.toContain("advancementTierId")
        expect(row.advancementTierLabel).toBeNull()
      }
    }))

  it.effect("an item no duty reaches has an empty list with its name; a child item inherits from its parent item", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(yield* on(acme, "liam", "ITEM", "firstAid")).toEqual({
        entityType: "ITEM",
        entityId: acme.ids.items.firstAid,
        entityName: "First aid",
        data: [],
        nextCursor: null
      })
      expect((yield* on(acme, "liam", "ITEM", "warden")).data.map(line(acme))).toEqual(["role Facilities Lead ACCOUNTABLE <- ITEM fire"])
    }))

  it.effect("an entity the caller cannot read is NotFound with its type's message; an admin reads it", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      for (const [type, key, message] of [
        ["ITEM", "vault", "No such item"],
        ["TOPIC", "keys", "No such topic"],
        ["SPACE", "secrets", "No such space"],
        ["ITEM", "pager", "No such item"]
      ] as const) {
        expect(yield* Effect.flip(on(acme, "liam", type, key)), key).toMatchObject({ _tag: "NotFound", message })
        expect((yield* on(acme, "adam", type, key)).entityId, key).toBe(idOf(acme, type, key))
      }
      // Team Runbooks is shared with Ops, which Victor is on.
      expect((yield* on(acme, "victor", "ITEM", "pager")).data.map(line(acme))).toEqual([
        "role Site Reliability RESPONSIBLE <- TOPIC oncall",
        ...fromCategory
      ])
      expect((yield* on(acme, "adam", "TOPIC", "keys")).data.map(line(acme))[0]).toBe("third_party northwind Audit INFORMED direct")
    }))

  it.effect("out of the live graph, of another organization, unknown or of another type: NotFound, even for an admin", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const attempts: ReadonlyArray<readonly [Imported, string, EntityDutiesParams]> = [
        [acme, "adam", { entityType: "ITEM", entityId: idOf(acme, "ITEM", "oldStep") }],
        [acme, "adam", { entityType: "ITEM", entityId: idOf(acme, "ITEM", "underArchived") }],
        [acme, "adam", { entityType: "ITEM", entityId: idOf(acme, "ITEM", "superseded") }],
        [acme, "adam", { entityType: "ITEM", entityId: idOf(acme, "ITEM", "inArchivedTopic") }],
        [acme, "adam", { entityType: "ITEM", entityId: idOf(acme, "ITEM", "legacyItem") }],
        [acme, "adam", { entityType: "TOPIC", entityId: idOf(acme, "TOPIC", "archivedTopic") }],
        [acme, "adam", { entityType: "TOPIC", entityId: idOf(acme, "TOPIC", "legacyTopic") }],
        [acme, "adam", { entityType: "SPACE", entityId: idOf(acme, "SPACE", "legacy") }],
        [other, "otto", { entityType: "ITEM", entityId: idOf(acme, "ITEM", "canary") }],
        [other, "otto", { entityType: "CATEGORY", entityId: idOf(acme, "CATEGORY", "engineering") }],
        [acme, "adam", { entityType: "TOPIC", entityId: idOf(acme, "ITEM", "canary") }],
        [acme, "adam", { entityType: "CATEGORY", entityId: "cat_unknown" }],
        [acme, "adam", { entityType: "SPACE", entityId: "" }]
      ]
      for (const [org, caller, params] of attempts) {
        expect((yield* Effect.flip(forEntity(org, caller, params)))._tag, JSON.stringify(params)).toBe("NotFound")
      }
    }))
})
