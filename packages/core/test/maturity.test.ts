import { expect, layer } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { categories } from "@tks/domain/knowledge"
import type { CategorySlug } from "@tks/domain/knowledge"
import type { MaturityParams } from "@tks/domain/maturity"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { demoFixture } from "../src/demo/fixture.js"
import { KnowledgeMaturity } from "../src/maturity/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

/**
 * Knowledge maturity over acme's graph (acme-knowledge.ts, acme-content.ts),
 * counted as the caller can read it. Engineering, read by an admin: three
 * topics (Deployments, On-call, Key rotation), six live items of which five
 * have evidence, all owned through the Engineer's RESPONSIBLE duty on the
 * category, two taught (Key rotation's only evidence is in no lesson), all
 * linked. Facilities: Safety alone, no owner (its duty sits on an item).
 * Acme's content dates from April 2026.
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, KnowledgeMaturity.Default).pipe(Layer.provideMerge(TestDatabaseLive))
const setup = importedOnce({ acme, other, demo: demoFixture() })

/** "Now" for freshness: within a year of acme's content, unless a test moves it. */
const at = (iso: string) => TestClock.setTime(Date.parse(iso))
const november = at("2026-11-28T00:00:00.000Z")

const maturity = (org: Imported, key: string, params: MaturityParams = {}) =>
  KnowledgeMaturity.pipe(Effect.flatMap((service) => service.get(org.access(key, policies.maturity.get), params)))
const health = (org: Imported, key: string) =>
  KnowledgeMaturity.pipe(Effect.flatMap((service) => service.categoryHealth(org.access(key, policies.maturity.categoryHealth))))

const values = (read: { signals: ReadonlyArray<{ code: string; value: number }> }) =>
  Object.fromEntries(read.signals.map((signal) => [signal.code, signal.value]))

/** "slug level topicCount" for the categories with a readable topic. */
const scored = (page: { data: ReadonlyArray<{ slug: string; level: string | null; topicCount: number }> }) =>
  page.data.filter((row) => row.topicCount > 0).map((row) => `${row.slug} ${row.level} ${row.topicCount}`)

layer(TestLayer)("knowledge maturity", (it) => {
  it.effect("a category's signals count its readable live graph, and its level is the highest whose thresholds are met", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      yield* november
      const read = yield* maturity(acme, "adam", { categorySlug: "engineering" })
      expect(read.category).toEqual({ slug: "engineering", name: "Engineering" })
      expect(values(read)).toEqual({
        topicCount: 3,
        itemsPerTopic: 2,
        evidenceCoverage: 0.833,
        ownershipCoverage: 1,
        trainingCoverage: 0.667,
        freshness: 1,
        relatedness: 1
      })
      expect(read.level).toBe("MANAGED")
      // OPTIMIZED is held back by three signals: the largest gap first.
      expect(read.recommendations.map((r) => `${r.rank} ${r.code} ${r.unlocks} ${r.impact}`)).toEqual([
        "1 itemsPerTopic OPTIMIZED HIGH",
        "2 trainingCoverage OPTIMIZED HIGH",
        "3 evidenceCoverage OPTIMIZED HIGH"
      ])
      expect(read.recommendations[1]!.detail).toBe("1 of 3 topics are taught by no open lesson; 80% need one.")
    }))

  it.effect("organization-wide is the sum of the categories, with recommendations naming its numbers", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      yield* november
      const read = yield* maturity(acme, "adam")
      expect(read.category).toBeNull()
      // Safety (facilities) has no owner: three of four topics are owned, short of MANAGED's 80%.
      expect(values(read)).toMatchObject({ topicCount: 4, itemsPerTopic: 2.25, evidenceCoverage: 0.778, ownershipCoverage: 0.75 })
      expect(read.level).toBe("DEFINED")
      expect(read.recommendations[0]).toEqual({
        rank: 1,
        code: "ownershipCoverage",
        title: "Give topics an owner",
        detail: "1 of 4 topics have no responsible or accountable owner; 80% need one.",
        impact: "HIGH",
        unlocks: "MANAGED"
      })
    }))

  it.effect("evidence counts as fresh only from content updated within the last 365 days", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      yield* at("2027-06-01T00:00:00.000Z")
      const read = yield* maturity(acme, "adam", { categorySlug: "engineering" })
      expect(values(read).freshness).toBe(0)
      expect(read.level).toBe("DEFINED")
      expect(read.recommendations[0]).toMatchObject({ code: "freshness", unlocks: "MANAGED", impact: "HIGH" })
    }))

  it.effect("a viewer's numbers are those of what they can read, so they differ from an admin's", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      yield* november
      // Victor reads Deployments and On-call (Ops), not Key rotation (admins only), so Deployments' link to it does not count.
      const viewer = yield* maturity(acme, "victor", { categorySlug: "engineering" })
      expect(values(viewer)).toMatchObject({ topicCount: 2, itemsPerTopic: 2.5, evidenceCoverage: 0.8, relatedness: 0.5 })
      expect(viewer.level).toBe("INITIAL")
      expect(scored(yield* health(acme, "victor"))).toEqual(["engineering null 2", "facilities null 1"])
      expect(scored(yield* health(acme, "adam"))).toEqual(["engineering MANAGED 3", "facilities null 1"])
      // Omar (external, on Partners) reads On-call, but neither its evidence nor its lesson, which are for Ops.
      expect(values(yield* maturity(acme, "omar", { categorySlug: "engineering" }))).toMatchObject({
        topicCount: 1,
        evidenceCoverage: 0,
        trainingCoverage: 0,
        ownershipCoverage: 1
      })
    }))

  it.effect("nothing readable is UNDOCUMENTED, told to document a topic first", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      yield* november
      for (const [org, key] of [[acme, "ella"], [other, "otto"]] as const) {
        const read = yield* maturity(org, key)
        expect(read.level, key).toBe("UNDOCUMENTED")
        expect(read.recommendations[0]?.code, key).toBe("topicCount")
      }
      const strategy = yield* maturity(acme, "adam", { categorySlug: "strategy" })
      expect(strategy).toMatchObject({ category: { slug: "strategy", name: "Strategy" }, level: "UNDOCUMENTED" })
    }))

  it.effect("the health list always has the 14 categories in display order, null below 3 readable topics", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      yield* november
      for (const [org, key] of [[acme, "adam"], [acme, "ella"], [other, "otto"]] as const) {
        const page = yield* health(org, key)
        expect(page.nextCursor, key).toBeNull()
        expect(page.data.map((row) => row.slug), key).toEqual(categories.map((category) => category.slug))
        expect(page.data.map((row) => row.name), key).toEqual(categories.map((category) => category.name))
      }
      const ella = yield* health(acme, "ella")
      for (const row of ella.data) expect(row, row.slug).toMatchObject({ level: null, topicCount: 0 })
    }))

  it.effect("an unknown categorySlug is a 400 naming the 14 slugs, even from a caller that did not decode it", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const error = yield* Effect.flip(maturity(acme, "adam", { categorySlug: "Engineering" as CategorySlug }))
      expect(error).toMatchObject({ _tag: "BadRequest", code: "VALIDATION_ERROR" })
      for (const { slug } of categories) expect(error.message).toContain(slug)
    }))

  it.effect("the demo organization's categories land on different levels: one high, one low, the rest unscored", () =>
    Effect.gen(function*() {
      const { demo } = yield* setup
      yield* november
      expect(scored(yield* health(demo, "ava"))).toEqual([
        "customer-success null 1",
        "operations MANAGED 3",
        "finance null 1",
        "health-safety INITIAL 3"
      ])
      const safety = yield* maturity(demo, "ava", { categorySlug: "health-safety" })
      expect(safety.recommendations[0]).toMatchObject({ code: "itemsPerTopic", unlocks: "DEFINED", impact: "HIGH" })
    }))
})
