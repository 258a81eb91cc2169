import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeBodies, rangeOf } from "@tks/core/testing/acme-content"
import { CategoryId, ItemId, SpaceId, TopicId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/categories/{id}, /v1/spaces/{id}, /v1/topics/{id}, /v1/items/{id}
 * on the wire, for the whole caller matrix. The trees, relations and
 * evidence rules are core's (knowledge-graph-detail.test.ts,
 * knowledge-graph-evidence.test.ts).
 */
const setup = acmeCallerMatrix

const base = "http://localhost:3000/v1"
const everyCaller: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin", "viewer", "external", "teamAdmin", "otherOrgAdmin"]

/** What each caller may read: Platform (everyone), Team Runbooks (Ops, Partners), Secrets (admins). */
const reads: Record<string, ReadonlyArray<CallerKind>> = {
  everyone: ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"],
  ops: ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"],
  admins: ["owner", "admin", "billingAdmin"]
}

layer(TestServerLive, { excludeTestServices: true })("GET /v1/{categories,spaces,topics,items}/{id}", (it) => {
  it.effect("the caller matrix: 200 for who can read the record, 404 with a JSON body for anyone else", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const records: ReadonlyArray<readonly [string, string, ReadonlyArray<CallerKind>]> = [
        ["space", `/v1/spaces/${result.ids.spaces.platform}`, reads.everyone!],
        ["space", `/v1/spaces/${result.ids.spaces.runbooks}`, reads.ops!],
        ["space", `/v1/spaces/${result.ids.spaces.secrets}`, reads.admins!],
        ["topic", `/v1/topics/${result.ids.topics.deploy}`, reads.everyone!],
        ["topic", `/v1/topics/${result.ids.topics.oncall}`, reads.ops!],
        ["topic", `/v1/topics/${result.ids.topics.keys}`, reads.admins!],
        ["item", `/v1/items/${result.ids.items.canaryMetrics}`, reads.everyone!],
        ["item", `/v1/items/${result.ids.items.pager}`, reads.ops!],
        ["item", `/v1/items/${result.ids.items.vault}`, reads.admins!],
        // A category is every member's to read; its spaces are filtered.
        ["category", `/v1/categories/${result.ids.categories.engineering}`, everyCaller.filter((kind) => kind !== "otherOrgAdmin")]
      ]
      for (const [, path, readers] of records) {
        for (const kind of everyCaller) {
          const response = yield* raw("GET", path, { token: tokens[kind] })
          if (readers.includes(kind)) expect(response.status, `${kind} ${path}`).toBe(200)
          else expectError(response, 404, "NOT_FOUND", `${kind} ${path}`)
        }
      }
    }))

  it.effect("404 for records out of the live graph (archived, superseded, under an archived item or space) and unknown ids", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const paths = [
        `/v1/spaces/${result.ids.spaces.legacy}`,
        `/v1/topics/${result.ids.topics.archivedTopic}`,
        `/v1/topics/${result.ids.topics.legacyTopic}`,
        `/v1/items/${result.ids.items.oldStep}`,
        `/v1/items/${result.ids.items.underArchived}`,
        `/v1/items/${result.ids.items.superseded}`,
        `/v1/items/${result.ids.items.inArchivedTopic}`,
        `/v1/items/${result.ids.items.legacyItem}`,
        "/v1/categories/cat_unknown",
        "/v1/spaces/spc_unknown",
        "/v1/topics/top_unknown",
        "/v1/items/itm_unknown"
      ]
      for (const path of paths) {
        const response = yield* raw("GET", path, { token: tokens.owner })
        expectError(response, 404, "NOT_FOUND", path)
        expect(response.json.message, path).toMatch(/^No such (category|space|topic|item)$/)
      }
    }))

  it.effect("a space on the wire: its category, visibility and live topics with item counts", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const space = yield* (yield* clientFor(tokens.viewer)).knowledge.getSpace({ path: { id: SpaceId.make(result.ids.spaces.platform!) } })
      expect(space).toEqual({
        id: result.ids.spaces.platform,
        name: "Platform",
        description: null,
        category: { id: result.ids.categories.engineering, slug: "engineering", name: "Engineering" },
        visibility: "everyone",
        topicCount: 1,
        url: `${base}/spaces/${result.ids.spaces.platform}`,
        topics: [{ id: result.ids.topics.deploy, name: "Deployments", slug: "deployments", itemCount: 4, url: `${base}/topics/${result.ids.topics.deploy}` }]
      })
      const category = yield* (yield* clientFor(tokens.viewer)).knowledge.getCategory({ path: { id: CategoryId.make(result.ids.categories.engineering!) } })
      expect(category.spaces.map((s) => s.name)).toEqual(["Platform", "Team Runbooks"])
    }))

  it.effect("a topic on the wire: the item tree nested in its source's order, each item with its position, and its prerequisites", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* raw("GET", `/v1/topics/${result.ids.topics.oncall}`, { token: tokens.teamAdmin })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        id: result.ids.topics.oncall,
        name: "On-call",
        slug: "on-call",
        description: null,
        category: { id: result.ids.categories.engineering, slug: "engineering", name: "Engineering" },
        space: { id: result.ids.spaces.runbooks, name: "Team Runbooks" },
        items: [{
          id: result.ids.items.pager,
          name: "Pager rotation",
          position: 1,
          kind: "process",
          body: null,
          url: `${base}/items/${result.ids.items.pager}`,
          children: []
        }],
        relatedTopics: [{ id: result.ids.topics.deploy, name: "Deployments", relation: "prerequisite", url: `${base}/topics/${result.ids.topics.deploy}` }],
        url: `${base}/topics/${result.ids.topics.oncall}`
      })
      const deploy = yield* (yield* clientFor(tokens.admin)).knowledge.getTopic({ path: { id: TopicId.make(result.ids.topics.deploy!) } })
      // The fixture lists the checklist first: its order, not the names', is the reader's.
      expect(deploy.items.map((i) => `${i.position} ${i.name}(${i.children.map((c) => `${c.name}(${c.children.map((g) => g.name).join()})`).join()})`)).toEqual([
        "1 Rollout checklist(Canary step(Canary metrics))",
        "2 hotfix policy()"
      ])
      expect(deploy.relatedTopics.map((t) => `${t.name} ${t.relation}`)).toEqual(["Key rotation related"])
    }))

  it.effect("an item on the wire: children, and evidence with quote, range or time range, confidence and link", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const quote = "A hotfix must be reviewed by a second engineer before it ships."
      const [start, end] = rangeOf(acmeBodies.deployBody, quote)
      const guide = result.ids.content.deployGuide!
      const hotfix = yield* raw("GET", `/v1/items/${result.ids.items.hotfix}`, { token: tokens.viewer })
      expect(hotfix.json).toEqual({
        id: result.ids.items.hotfix,
        name: "hotfix policy",
        kind: "policy",
        body: null,
        topic: { id: result.ids.topics.deploy, name: "Deployments" },
        parentItemId: null,
        position: 2,
        children: [],
        evidence: [{
          id: expect.stringMatching(/^evd_/),
          content: { id: guide, title: "Deployment Guide", type: "document" },
          quote,
          range: { start, end },
          timeRange: null,
          confidence: 0.95,
          link: `${base}/content/${guide}#chars=${start}-${end}`
        }],
        url: `${base}/items/${result.ids.items.hotfix}`
      })
      const fire = yield* (yield* clientFor(tokens.viewer)).knowledge.getItem({ path: { id: ItemId.make(result.ids.items.fire!) } })
      expect(fire.children.map((c) => c.name)).toEqual(["Fire warden"])
      expect(fire.evidence.map((e) => [e.content.type, e.timeRange, e.link.startsWith("https://www.youtube.com/") ? e.link : "content"])).toEqual([
        ["guide", null, "content"],
        ["video", { startSeconds: 30, endSeconds: 75 }, "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=30s"]
      ])
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 on every read", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const paths = [
        `/v1/categories/${result.ids.categories.engineering}`,
        `/v1/spaces/${result.ids.spaces.platform}`,
        `/v1/topics/${result.ids.topics.deploy}`,
        `/v1/items/${result.ids.items.rollout}`
      ]
      for (const path of paths) {
        for (const kind of badTokens) expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${path} ${kind}`)
      }
    }))
})
