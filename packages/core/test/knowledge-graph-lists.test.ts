import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { SpaceListParams, TopicListParams } from "@tks/domain/knowledge-graph"
import { categories as categoryList } from "@tks/domain/knowledge"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { KnowledgeGraph } from "../src/knowledge/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

/**
 * Categories, spaces and topics as lists (also the list_categories
 * and list_spaces tools). Acme's graph (acme-knowledge.ts): Platform and Buildings are
 * for everyone, Team Runbooks for Ops and Partners, Secrets for admins, and
 * Legacy is archived; Deployments has an archived sibling topic.
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, KnowledgeGraph.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const categories = (org: Imported, key: string) =>
  KnowledgeGraph.pipe(Effect.flatMap((graph) => graph.listCategories(org.access(key, policies.knowledge.categories))))
const spaces = (org: Imported, key: string, params: SpaceListParams = {}) =>
  KnowledgeGraph.pipe(Effect.flatMap((graph) => graph.listSpaces(org.access(key, policies.knowledge.spaces), params)))
const topics = (org: Imported, key: string, params: TopicListParams = {}) =>
  KnowledgeGraph.pipe(Effect.flatMap((graph) => graph.listTopics(org.access(key, policies.knowledge.topics), params)))

/** "slug spaces/topics" for the categories that hold something. */
const counts = (page: { data: ReadonlyArray<{ slug: string; spaceCount: number; topicCount: number }> }) =>
  page.data.filter((c) => c.spaceCount > 0 || c.topicCount > 0).map((c) => `${c.slug} ${c.spaceCount}/${c.topicCount}`)

layer(TestLayer)("knowledge graph lists", (it) => {
  it.effect("categories: all 14 in display order, on one page, whoever reads", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      for (const key of ["olivia", "victor", "ella"]) {
        const page = yield* categories(acme, key)
        expect(page.data.map((c) => c.slug), key).toEqual(categoryList.map((c) => c.slug))
        expect(page.data.map((c) => c.name), key).toEqual(categoryList.map((c) => c.name))
        expect(page.nextCursor).toBeNull()
      }
      const first = (yield* categories(acme, "victor")).data[0]!
      expect(first).toEqual({
        id: acme.ids.categories.strategy,
        slug: "strategy",
        name: "Strategy",
        spaceCount: 0,
        topicCount: 0,
        url: `http://localhost:3000/v1/categories/${acme.ids.categories.strategy}`
      })
    }))

  it.effect("category counts are live spaces and topics the caller can read", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // Legacy (archived space) and Archived topic never count.
      expect(counts(yield* categories(acme, "adam"))).toEqual(["engineering 3/3", "facilities 1/1"])
      // Victor is on Ops: Team Runbooks, not Secrets.
      expect(counts(yield* categories(acme, "victor"))).toEqual(["engineering 2/2", "facilities 1/1"])
      expect(counts(yield* categories(acme, "liam"))).toEqual(["engineering 1/1", "facilities 1/1"])
      // External accounts read only spaces of their teams: Omar is on Partners, Ella on no team.
      expect(counts(yield* categories(acme, "omar"))).toEqual(["engineering 1/1"])
      expect(counts(yield* categories(acme, "ella"))).toEqual([])
    }))

  it.effect("another organization's categories are its own", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const theirs = yield* categories(other, "otto")
      expect(theirs.data).toHaveLength(14)
      const acmeIds = new Set(Object.values(acme.ids.categories))
      for (const category of theirs.data) expect(acmeIds.has(category.id)).toBe(false)
      expect(counts(theirs)).toEqual([])
    }))

  it.effect("spaces: live and readable only, by name, with category, visibility and live topic count", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const names = (page: { data: ReadonlyArray<{ name: string }> }) => page.data.map((s) => s.name)
      expect(names(yield* spaces(acme, "adam"))).toEqual(["Buildings", "Platform", "Secrets", "Team Runbooks"])
      expect(names(yield* spaces(acme, "victor"))).toEqual(["Buildings", "Platform", "Team Runbooks"])
      expect(names(yield* spaces(acme, "liam"))).toEqual(["Buildings", "Platform"])
      expect(names(yield* spaces(acme, "omar"))).toEqual(["Team Runbooks"])
      expect(names(yield* spaces(acme, "ella"))).toEqual([])
      const platform = (yield* spaces(acme, "victor")).data.find((s) => s.name === "Platform")
      expect(platform).toEqual({
        id: acme.ids.spaces.platform,
        name: "Platform",
        description: null,
        category: { id: acme.ids.categories.engineering, slug: "engineering", name: "Engineering" },
        visibility: "everyone",
        // Deployments; its archived sibling is left out.
        topicCount: 1,
        url: `http://localhost:3000/v1/spaces/${acme.ids.spaces.platform}`
      })
    }))

  it.effect("spaces: categorySlug keeps one category's", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect((yield* spaces(acme, "adam", { categorySlug: "facilities" })).data.map((s) => s.name)).toEqual(["Buildings"])
      expect((yield* spaces(acme, "adam", { categorySlug: "engineering" })).data.map((s) => s.name)).toEqual([
        "Platform",
        "Secrets",
        "Team Runbooks"
      ])
      expect((yield* spaces(acme, "adam", { categorySlug: "finance" })).data).toEqual([])
    }))

  it.effect("spaces: pages of one walk every space once, and the cursor is bound to the caller and the filter", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const seen: Array<string> = []
      let cursor: string | undefined
      for (let i = 0; i < 10; i++) {
        const page = yield* spaces(acme, "adam", { limit: 1, ...(cursor === undefined ? {} : { cursor }) })
        seen.push(...page.data.map((s) => s.name))
        if (page.nextCursor === null) break
        cursor = page.nextCursor
      }
      expect(seen).toEqual(["Buildings", "Platform", "Secrets", "Team Runbooks"])
      const first = (yield* spaces(acme, "adam", { limit: 1 })).nextCursor!
      for (const attempt of [spaces(acme, "victor", { cursor: first }), spaces(acme, "adam", { cursor: first, categorySlug: "engineering" })]) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }
    }))

  it.effect("topics: live topics of readable spaces, by name, each with its space, category and live item count", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const names = (page: { data: ReadonlyArray<{ name: string }> }) => page.data.map((t) => t.name)
      expect(names(yield* topics(acme, "adam"))).toEqual(["Deployments", "Key rotation", "On-call", "Safety"])
      expect(names(yield* topics(acme, "victor"))).toEqual(["Deployments", "On-call", "Safety"])
      expect(names(yield* topics(acme, "omar"))).toEqual(["On-call"])
      expect(names(yield* topics(acme, "ella"))).toEqual([])
      const [deploy] = (yield* topics(acme, "liam")).data
      expect(deploy).toEqual({
        id: acme.ids.topics.deploy,
        name: "Deployments",
        slug: "deployments",
        description: null,
        space: { id: acme.ids.spaces.platform, name: "Platform" },
        category: { id: acme.ids.categories.engineering, slug: "engineering", name: "Engineering" },
        // Rollout checklist, Canary step, Canary metrics, hotfix policy: not the archived Old step or what is under it, nor the superseded fact.
        itemCount: 4,
        url: `http://localhost:3000/v1/topics/${acme.ids.topics.deploy}`
      })
    }))

  it.effect("topics: spaceId, categorySlug and query narrow the list; an unreadable space lists nothing", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const names = (page: { data: ReadonlyArray<{ name: string }> }) => page.data.map((t) => t.name)
      expect(names(yield* topics(acme, "adam", { spaceId: acme.ids.spaces.buildings! }))).toEqual(["Safety"])
      expect(names(yield* topics(acme, "adam", { categorySlug: "engineering" }))).toEqual(["Deployments", "Key rotation", "On-call"])
      expect(names(yield* topics(acme, "adam", { query: "ROT" }))).toEqual(["Key rotation"])
      expect(names(yield* topics(acme, "adam", { query: "o", categorySlug: "engineering" }))).toEqual(["Deployments", "Key rotation", "On-call"])
      // LIKE wildcards are taken literally.
      expect(names(yield* topics(acme, "adam", { query: "%" }))).toEqual([])
      expect(names(yield* topics(acme, "liam", { spaceId: acme.ids.spaces.secrets! }))).toEqual([])
      // The archived Legacy space's topic is not listed, even by its space.
      expect(names(yield* topics(acme, "adam", { spaceId: acme.ids.spaces.legacy! }))).toEqual([])
    }))

  it.effect("topics: pages of two walk every topic once", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const first = yield* topics(acme, "adam", { limit: 2 })
      const second = yield* topics(acme, "adam", { limit: 2, cursor: first.nextCursor! })
      expect([...first.data, ...second.data].map((t) => t.name)).toEqual(["Deployments", "Key rotation", "On-call", "Safety"])
      expect(second.nextCursor).toBeNull()
      expect(yield* Effect.flip(topics(acme, "adam", { limit: 2, cursor: first.nextCursor!, query: "o" }))).toMatchObject({
        code: "INVALID_CURSOR"
      })
    }))

  it.effect("another organization's admin lists none of acme's spaces or topics", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      expect((yield* spaces(other, "otto")).data).toEqual([])
      expect((yield* topics(other, "otto", { spaceId: acme.ids.spaces.platform! })).data).toEqual([])
    }))
})
