import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { ItemId, SpaceId, TopicId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { KnowledgeGraph } from "../src/knowledge/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { importedOnce } from "./support/access.js"

/**
 * Evidence and graph states acme does not have: evidence in a draft, in a
 * video whose source is a share link or absent, evidence with no place, an
 * item under a superseded parent, a superseded space.
 */
const edge: OrgFixtureInput = {
  organization: { name: "Edge" },
  people: [
    { key: "eve", name: "Eve Admin", email: "eve@edge.test", role: "admin" },
    { key: "val", name: "Val Viewer", email: "val@edge.test", role: "viewer" }
  ],
  content: [
    { key: "draft", title: "Draft notes", status: "draft", body: "Draft text here.", chapters: [{ headline: "Draft", text: "Draft text here." }] },
    { key: "shared", type: "video", title: "Shared video", videoId: "abcdefghijk", sourceUrl: "https://youtu.be/abcdefghijk" },
    { key: "bare", type: "video", title: "Bare video", videoId: "abcdefghijl" },
    { key: "timed", type: "video", title: "Timed video", videoId: "abcdefghijm", sourceUrl: "https://www.youtube.com/watch?v=abcdefghijm&t=5s" },
    { key: "doc", title: "Plain doc", body: "Alpha beta gamma.", chapters: [{ headline: "Alpha", text: "Alpha beta gamma." }] }
  ],
  spaces: [
    {
      key: "ops",
      category: "operations",
      name: "Ops space",
      description: "Where operations live",
      topics: [
        {
          key: "main",
          name: "Main topic",
          description: "About the main things",
          related: ["side"],
          items: [
            {
              key: "evidenced",
              name: "Evidenced",
              kind: "fact",
              body: "A body of text",
              evidence: [
                { content: "draft", quote: "Draft text", chars: [0, 10], chapter: 1, confidence: 0.99 },
                { content: "shared", quote: "At one minute", seconds: [61.9, 70], confidence: 0.8 },
                { content: "bare", quote: "No address", seconds: [5, 6], confidence: 0.7 },
                { content: "timed", quote: "Later on", seconds: [90, 95], confidence: 0.6 },
                { content: "doc", quote: null, confidence: 0.5 }
              ]
            },
            {
              key: "supersededParent",
              name: "Superseded parent",
              kind: "process",
              state: "superseded",
              children: [{ key: "orphan", name: "Orphan", kind: "fact" }]
            }
          ]
        },
        { key: "side", name: "Side topic" }
      ]
    },
    {
      key: "old",
      category: "operations",
      name: "Old space",
      state: "superseded",
      topics: [{ key: "oldTopic", name: "Old topic", items: [{ key: "oldItem", name: "Old item", kind: "fact" }] }]
    }
  ]
}

const TestLayer = Layer.mergeAll(FixtureImporter.Default, KnowledgeGraph.Default).pipe(Layer.provideMerge(TestDatabaseLive))
const setup = importedOnce({ edge })
const base = "http://localhost:3000/v1"

layer(TestLayer)("knowledge graph: evidence links and graph states", (it) => {
  it.effect("evidence in unpublished content is left out; links follow the place and the source address", () =>
    Effect.gen(function*() {
      const { edge } = yield* setup
      const graph = yield* KnowledgeGraph
      const read = yield* graph.getItem(edge.access("eve", policies.knowledge.item), ItemId.make(edge.ids.items.evidenced!))
      const content = (key: string) => edge.ids.content[key]!
      expect(read.evidence.map((e) => [e.content.title, e.link])).toEqual([
        // A share link is not a watch link: the content's own link.
        ["Shared video", `${base}/content/${content("shared")}`],
        ["Bare video", `${base}/content/${content("bare")}`],
        // A watch link's own t is replaced by the evidence's start, in whole seconds.
        ["Timed video", "https://www.youtube.com/watch?v=abcdefghijm&t=90s"],
        ["Plain doc", `${base}/content/${content("doc")}`]
      ])
      expect(read.evidence[0]).toMatchObject({ range: null, timeRange: { startSeconds: 61.9, endSeconds: 70 }, confidence: 0.8 })
      expect(read.evidence[3]).toMatchObject({ quote: null, range: null, timeRange: null, confidence: 0.5 })
      expect(read.body).toBe("A body of text")
    }))

  it.effect("an item under a superseded parent, and a superseded space with all under it, are 404", () =>
    Effect.gen(function*() {
      const { edge } = yield* setup
      const graph = yield* KnowledgeGraph
      const access = (policy: typeof policies.knowledge.item) => edge.access("eve", policy)
      const errors = [
        yield* Effect.flip(graph.getItem(access(policies.knowledge.item), ItemId.make(edge.ids.items.orphan!))),
        yield* Effect.flip(graph.getItem(access(policies.knowledge.item), ItemId.make(edge.ids.items.oldItem!))),
        yield* Effect.flip(graph.getTopic(access(policies.knowledge.topic), TopicId.make(edge.ids.topics.oldTopic!))),
        yield* Effect.flip(graph.getSpace(access(policies.knowledge.space), SpaceId.make(edge.ids.spaces.old!)))
      ]
      for (const error of errors) expect(error).toMatchObject({ _tag: "NotFound" })
      const main = yield* graph.getTopic(access(policies.knowledge.topic), TopicId.make(edge.ids.topics.main!))
      expect(main.items.map((i) => i.name)).toEqual(["Evidenced"])
      expect(main.description).toBe("About the main things")
      expect(main.relatedTopics.map((t) => `${t.name} ${t.relation}`)).toEqual(["Side topic related"])
    }))

  it.effect("a space's description is read; topics without items count none", () =>
    Effect.gen(function*() {
      const { edge } = yield* setup
      const graph = yield* KnowledgeGraph
      const read = yield* graph.getSpace(edge.access("val", policies.knowledge.space), SpaceId.make(edge.ids.spaces.ops!))
      expect(read.description).toBe("Where operations live")
      expect(read.topics.map((t) => `${t.name} ${t.itemCount}`)).toEqual(["Main topic 1", "Side topic 0"])
    }))
})
