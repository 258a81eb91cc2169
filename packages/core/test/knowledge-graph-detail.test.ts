import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { CategoryId, ItemId, SpaceId, TopicId } from "@tks/domain/ids"
import type { TopicItem } from "@tks/domain/knowledge-graph"
import { policies } from "@tks/domain/policies"
import { acmeBodies, rangeOf } from "@tks/core/testing/acme-content"
import { acme, other } from "@tks/core/testing/organizations"
import { KnowledgeGraph } from "../src/knowledge/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

/**
 * One space, topic, category or item (also the get_space,
 * get_topic and get_item tools): the live graph only, what the caller can read only, 404 for
 * anything else. Acme's graph is described in acme-knowledge.ts, its library
 * in acme-content.ts.
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, KnowledgeGraph.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const base = "http://localhost:3000/v1"
const graph = KnowledgeGraph

const space = (org: Imported, key: string, id: string) =>
  graph.pipe(Effect.flatMap((g) => g.getSpace(org.access(key, policies.knowledge.space), SpaceId.make(id))))
const category = (org: Imported, key: string, id: string) =>
  graph.pipe(Effect.flatMap((g) => g.getCategory(org.access(key, policies.knowledge.categories), CategoryId.make(id))))
const topic = (org: Imported, key: string, id: string) =>
  graph.pipe(Effect.flatMap((g) => g.getTopic(org.access(key, policies.knowledge.topic), TopicId.make(id))))
const item = (org: Imported, key: string, id: string) =>
  graph.pipe(Effect.flatMap((g) => g.getItem(org.access(key, policies.knowledge.item), ItemId.make(id))))

const notFound = <A, E, R>(read: Effect.Effect<A, E, R>, label: string) =>
  Effect.flip(read).pipe(Effect.map((error) => expect(error, label).toMatchObject({ _tag: "NotFound" })))

/** An item tree as nested names: "Rollout checklist > [Canary step > [Canary metrics]]". */
const shape = (items: ReadonlyArray<TopicItem>): string =>
  items.map((i) => (i.children.length === 0 ? i.name : `${i.name} > [${shape(i.children)}]`)).join(", ")

layer(TestLayer)("knowledge graph details", (it) => {
  it.effect("a space: its live topics by name with live item counts; its category and visibility", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(yield* space(acme, "liam", acme.ids.spaces.platform!)).toEqual({
        id: acme.ids.spaces.platform,
        name: "Platform",
        description: null,
        category: { id: acme.ids.categories.engineering, slug: "engineering", name: "Engineering" },
        visibility: "everyone",
        topicCount: 1,
        url: `${base}/spaces/${acme.ids.spaces.platform}`,
        topics: [{ id: acme.ids.topics.deploy, name: "Deployments", slug: "deployments", itemCount: 4, url: `${base}/topics/${acme.ids.topics.deploy}` }]
      })
      const runbooks = yield* space(acme, "omar", acme.ids.spaces.runbooks!)
      expect(runbooks.visibility).toBe("teams")
      expect(runbooks.topics.map((t) => `${t.name} ${t.itemCount}`)).toEqual(["On-call 1"])
    }))

  it.effect("a space out of reach is 404: a team space of other teams, an admins-only space, an archived space, another organization's, an unknown id", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      yield* notFound(space(acme, "liam", acme.ids.spaces.runbooks!), "team space, not on the team")
      yield* notFound(space(acme, "ella", acme.ids.spaces.platform!), "external, everyone space")
      yield* notFound(space(acme, "victor", acme.ids.spaces.secrets!), "admins only")
      yield* notFound(space(acme, "adam", acme.ids.spaces.legacy!), "archived")
      yield* notFound(space(other, "otto", acme.ids.spaces.platform!), "other organization")
      yield* notFound(space(acme, "adam", "spc_unknown"), "unknown")
      expect((yield* space(acme, "adam", acme.ids.spaces.secrets!)).topics.map((t) => t.name)).toEqual(["Key rotation"])
    }))

  it.effect("a category: its readable live spaces by name; another organization's or an unknown category is 404", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const engineering = yield* category(acme, "victor", acme.ids.categories.engineering!)
      expect(engineering).toMatchObject({ slug: "engineering", name: "Engineering", spaceCount: 2, topicCount: 2 })
      expect(engineering.spaces.map((s) => s.name)).toEqual(["Platform", "Team Runbooks"])
      expect((yield* category(acme, "ella", acme.ids.categories.engineering!)).spaces).toEqual([])
      yield* notFound(category(other, "otto", acme.ids.categories.engineering!), "other organization")
      yield* notFound(category(acme, "adam", "cat_unknown"), "unknown")
    }))

  it.effect("a topic: description, category, space, its live item tree in the order its source gives (position), url", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const deploy = yield* topic(acme, "liam", acme.ids.topics.deploy!)
      expect(deploy).toMatchObject({
        id: acme.ids.topics.deploy,
        name: "Deployments",
        slug: "deployments",
        description: null,
        category: { id: acme.ids.categories.engineering, slug: "engineering", name: "Engineering" },
        space: { id: acme.ids.spaces.platform, name: "Platform" },
        url: `${base}/topics/${acme.ids.topics.deploy}`
      })
      // Old step (archived) and what is under it, and the superseded fact, are left out.
      // The fixture lists the checklist before the policy: that order, not the names', is kept.
      expect(shape(deploy.items)).toBe("Rollout checklist > [Canary step > [Canary metrics]], hotfix policy")
      expect(deploy.items.map((i) => i.position)).toEqual([1, 2])
      const rollout = deploy.items[0]!
      expect(rollout).toMatchObject({ id: acme.ids.items.rollout, kind: "process", body: null, url: `${base}/items/${acme.ids.items.rollout}` })
      expect(rollout.children[0]!.children[0]).toEqual({
        id: acme.ids.items.canaryMetrics,
        name: "Canary metrics",
        position: 1,
        kind: "fact",
        body: null,
        url: `${base}/items/${acme.ids.items.canaryMetrics}`,
        children: []
      })
    }))

  it.effect("related topics: prerequisites and related topics, only live ones the caller can read", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const related = (key: string, topicKey: string) =>
        topic(acme, key, acme.ids.topics[topicKey]!).pipe(Effect.map((t) => t.relatedTopics))
      // Key rotation (admins only) is related to Deployments, both ways.
      expect(yield* related("adam", "deploy")).toEqual([
        { id: acme.ids.topics.keys, name: "Key rotation", relation: "related", url: `${base}/topics/${acme.ids.topics.keys}` }
      ])
      expect(yield* related("victor", "deploy")).toEqual([])
      expect(yield* related("adam", "keys")).toEqual([
        { id: acme.ids.topics.deploy, name: "Deployments", relation: "related", url: `${base}/topics/${acme.ids.topics.deploy}` }
      ])
      // On-call needs Deployments first.
      expect(yield* related("victor", "oncall")).toEqual([
        { id: acme.ids.topics.deploy, name: "Deployments", relation: "prerequisite", url: `${base}/topics/${acme.ids.topics.deploy}` }
      ])
      // An external account on Partners reads On-call but not Deployments (everyone excludes external accounts).
      expect(yield* related("omar", "oncall")).toEqual([])
    }))

  it.effect("a topic out of the live graph or out of reach is 404", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      yield* notFound(topic(acme, "adam", acme.ids.topics.archivedTopic!), "archived topic")
      yield* notFound(topic(acme, "adam", acme.ids.topics.legacyTopic!), "topic of an archived space")
      yield* notFound(topic(acme, "victor", acme.ids.topics.keys!), "admins-only space")
      yield* notFound(topic(acme, "liam", acme.ids.topics.oncall!), "team space")
      yield* notFound(topic(other, "otto", acme.ids.topics.deploy!), "other organization")
      yield* notFound(topic(acme, "adam", "top_unknown"), "unknown")
    }))

  it.effect("an item: topic, parent, its position, live children in their order, evidence with its range and a link to the place", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const quote = "Every release follows the rollout checklist."
      const [start, end] = rangeOf(acmeBodies.deployBody, quote)
      const guide = acme.ids.content.deployGuide!
      expect(yield* item(acme, "liam", acme.ids.items.rollout!)).toEqual({
        id: acme.ids.items.rollout,
        name: "Rollout checklist",
        kind: "process",
        body: null,
        topic: { id: acme.ids.topics.deploy, name: "Deployments" },
        parentItemId: null,
        position: 1,
        // Old step is archived.
        children: [{ id: acme.ids.items.canary, name: "Canary step", position: 1, kind: "process", url: `${base}/items/${acme.ids.items.canary}` }],
        evidence: [{
          id: expect.any(String),
          content: { id: guide, title: "Deployment Guide", type: "document" },
          quote,
          range: { start, end },
          timeRange: null,
          confidence: 0.9,
          link: `${base}/content/${guide}#chars=${start}-${end}`
        }],
        url: `${base}/items/${acme.ids.items.rollout}`
      })
      const metrics = yield* item(acme, "liam", acme.ids.items.canaryMetrics!)
      expect(metrics.parentItemId).toBe(acme.ids.items.canary)
      expect(metrics.evidence).toEqual([])
    }))

  it.effect("evidence: most confident first; a video's link is its watch link at the start second", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const fire = yield* item(acme, "liam", acme.ids.items.fire!)
      expect(fire.children.map((c) => c.name)).toEqual(["Fire warden"])
      expect(fire.evidence.map((e) => `${e.content.title} ${e.confidence}`)).toEqual(["Safety Guide 0.9", "Fire Drill Walkthrough 0.7"])
      expect(fire.evidence[1]).toMatchObject({
        content: { id: acme.ids.content.fireVideo, title: "Fire Drill Walkthrough", type: "video" },
        quote: "Walk calmly to the assembly point",
        range: null,
        timeRange: { startSeconds: 30, endSeconds: 75 },
        confidence: 0.7,
        link: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=30s"
      })
      expect(fire.evidence[0]!.content.type).toBe("guide")
      expect(fire.evidence[0]!.link).toMatch(new RegExp(`/v1/content/${acme.ids.content.safetyGuide}#chars=\\d+-\\d+$`))
    }))

  it.effect("evidence from content the caller cannot read is left out; the item stays readable", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // Pager rotation rests on the Ops runbook (Ops only); its space is shared with Ops and Partners.
      expect((yield* item(acme, "victor", acme.ids.items.pager!)).evidence.map((e) => e.content.title)).toEqual(["Ops Pager Runbook"])
      expect((yield* item(acme, "omar", acme.ids.items.pager!)).evidence).toEqual([])
      expect((yield* item(acme, "adam", acme.ids.items.vault!)).evidence.map((e) => e.content.title)).toEqual(["Vault Key Policy"])
    }))

  it.effect("an item out of the live graph or out of reach is 404", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        ["adam", "oldStep", "archived item"],
        ["adam", "underArchived", "under an archived item"],
        ["adam", "superseded", "superseded item"],
        ["adam", "inArchivedTopic", "in an archived topic"],
        ["adam", "legacyItem", "in an archived space"],
        ["victor", "vault", "admins-only space"],
        ["liam", "pager", "team space"],
        ["ella", "rollout", "external account, everyone space"]
      ]
      for (const [key, itemKey, label] of cases) yield* notFound(item(acme, key, acme.ids.items[itemKey]!), label)
      yield* notFound(item(other, "otto", acme.ids.items.rollout!), "other organization")
      yield* notFound(item(acme, "adam", "itm_unknown"), "unknown")
    }))
})
