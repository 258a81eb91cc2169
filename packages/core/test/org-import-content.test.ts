import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import { acmeBodies, rangeOf } from "../testing/acme-content.js"
import { acme } from "../testing/organizations.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const problemsOf = (input: unknown) =>
  FixtureImporter.pipe(
    Effect.flatMap((importer) => importer.importOrganization(input)),
    Effect.flip,
    Effect.map((error) => (error._tag === "FixtureInvalid" ? error.problems : [String(error)]))
  )

layer(TestLayer)("fixture import: content, chapters, evidence, relations, review requests", (it) => {
  it.effect("acme's library arrives processed: chapters placed in the body, evidence on its range, indexed, no job queued", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const result = yield* (yield* FixtureImporter).importOrganization(acme)
      const org = result.organizationId
      const deployId = result.ids.content["deployGuide"]
      const chapters = yield* sql<{ sequence: number; headline: string | null; text: string; char_start: number; char_end: number; indexed: boolean }>`
        SELECT sequence, headline, text, char_start, char_end, search_vector IS NOT NULL AS indexed
        FROM chapters WHERE org_id = ${org} AND content_id = ${deployId} ORDER BY sequence`
      expect(chapters.map((chapter) => [chapter.sequence, chapter.headline, chapter.indexed])).toEqual([[1, "Rolling out", true], [2, "Hotfixes", true]])
      for (const chapter of chapters) expect(acmeBodies.deployBody.slice(chapter.char_start, chapter.char_end)).toBe(chapter.text)

      const quote = "A hotfix must be reviewed by a second engineer before it ships."
      const evidence = yield* sql<{ quote: string; char_start: number; char_end: number; sequence: number; confidence: number }>`
        SELECT e.quote, e.char_start, e.char_end, c.sequence, e.confidence FROM evidence e JOIN chapters c ON c.org_id = e.org_id AND c.id = e.chapter_id
        WHERE e.org_id = ${org} AND e.item_id = ${result.ids.items["hotfix"]}`
      expect(evidence).toEqual([{ quote, char_start: rangeOf(acmeBodies.deployBody, quote)[0], char_end: rangeOf(acmeBodies.deployBody, quote)[1], sequence: 2, confidence: 0.95 }])

      const video = yield* sql<{ time_start_seconds: number; time_end_seconds: number }>`
        SELECT time_start_seconds, time_end_seconds FROM evidence WHERE org_id = ${org} AND content_id = ${result.ids.content["fireVideo"]}`
      expect(video).toEqual([{ time_start_seconds: 30, time_end_seconds: 75 }])

      const statuses = yield* sql<{ status: string; processing_status: string; indexing_status: string }>`
        SELECT DISTINCT status, processing_status, indexing_status FROM content WHERE org_id = ${org} AND status = 'published'`
      expect(statuses).toEqual([{ status: "published", processing_status: "COMPLETED", indexing_status: "COMPLETED" }])
      const topics = yield* sql<{ unindexed: number }>`SELECT count(*)::int AS unindexed FROM topics WHERE org_id = ${org} AND search_vector IS NULL`
      expect(topics[0]?.unindexed).toBe(0)
      const jobs = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE org_id = ${org}`
      expect(jobs[0]?.n).toBe(0)

      const relations = yield* sql<{ topic_id: string; related_topic_id: string; kind: string }>`
        SELECT topic_id, related_topic_id, kind FROM topic_relations WHERE org_id = ${org} ORDER BY kind, topic_id`
      const { deploy, keys, oncall } = result.ids.topics as Record<string, string>
      expect(relations).toHaveLength(3)
      expect(relations).toEqual(expect.arrayContaining([
        { topic_id: keys, related_topic_id: deploy, kind: "related" },
        { topic_id: deploy, related_topic_id: keys, kind: "related" },
        { topic_id: oncall, related_topic_id: deploy, kind: "prerequisite" }
      ]))

      const pieces = yield* sql<{ content_id: string }>`
        SELECT content_id FROM lesson_content WHERE org_id = ${org} AND lesson_id = ${result.ids.lessons["drills"]} ORDER BY position`
      expect(pieces.map((piece) => piece.content_id)).toEqual([result.ids.content["opsRunbook"], result.ids.content["deployGuide"]])

      const requests = yield* sql<{ id: string; status: string; title: string; decided_by: string | null }>`
        SELECT id, status, title, decided_by FROM content_review_requests WHERE org_id = ${org} ORDER BY created_at`
      expect(requests).toEqual([
        { id: result.ids.reviewRequests["pendingReq"], status: "PENDING", title: "Pending Deployment Proposal", decided_by: null },
        { id: result.ids.reviewRequests["rejectedReq"], status: "REJECTED", title: "Rejected Deployment Idea", decided_by: result.ids.people["adam"] }
      ])
    }))

  it.effect("published markdown without chapters is queued for processing once; a draft with markdown is not", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const result = yield* (yield* FixtureImporter).importOrganization({
        organization: { name: "Raw Co" },
        content: [
          { key: "raw", title: "Raw", body: "# Raw\n\nSome text." },
          { key: "draft", title: "Draft", status: "draft", body: "Later." }
        ]
      })
      const jobs = yield* sql<{ kind: string; subject_id: string; status: string }>`
        SELECT kind, subject_id, status FROM jobs WHERE org_id = ${result.organizationId}`
      expect(jobs).toEqual([{ kind: "content.process", subject_id: result.ids.content["raw"], status: "PENDING" }])
      const raw = yield* sql<{ processing_status: string; indexing_status: string }>`
        SELECT processing_status, indexing_status FROM content WHERE org_id = ${result.organizationId} AND id = ${result.ids.content["raw"]}`
      expect(raw).toEqual([{ processing_status: "PENDING", indexing_status: "PENDING" }])
    }))

  it.effect("bad references in content, evidence, relations and review requests are all reported together; nothing is written", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const before = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`
      const problems = yield* problemsOf({
        organization: { name: "Broken Co" },
        people: [{ key: "p", name: "P", email: "p@broken.example", role: "owner" }],
        spaces: [{
          key: "s",
          category: "operations",
          name: "S",
          topics: [{
            key: "t",
            name: "T",
            related: ["t", "nowhere"],
            items: [{ key: "i", name: "I", kind: "fact", evidence: [{ content: "ghost" }, { content: "doc", chapter: 3 }] }]
          }]
        }],
        content: [{ key: "doc", title: "Doc", teams: ["x"], chapters: [{ text: "one" }] }],
        lessons: [{ key: "l", title: "L", content: ["ghost"] }],
        reviewRequests: [{ key: "r", content: "doc", submitter: "nobody" }]
      })
      expect(problems).toEqual(expect.arrayContaining([
        `content[0].teams: teams are listed only with visibility "teams" (this one is "everyone")`,
        `content[0].teams[0]: unknown team key "x"`,
        `spaces[0].topics[0].related[0]: a topic cannot be related to itself`,
        `spaces[0].topics[0].related[1]: unknown topic key "nowhere"`,
        `spaces[0].topics[0].items[0].evidence[0].content: unknown content key "ghost"`,
        `spaces[0].topics[0].items[0].evidence[1].chapter: content "doc" has no chapter 3`,
        `lessons[0].content[0]: unknown content key "ghost"`,
        `reviewRequests[0].submitter: unknown person key "nobody"`
      ]))
      const after = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`
      expect(after).toEqual(before)
    }))
})
