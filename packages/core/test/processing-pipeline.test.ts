import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { FixtureImporter } from "../src/org-import/importer.js"
import { ContentProcessor } from "../src/processing/processor.js"
import { contentRecord, insertContent, snapshot } from "./support/content-rows.js"
import { handbookChapterCount, handbookItemCount, handbookTopics, travelHandbook } from "./support/handbook.js"
import { TestExtractorLive } from "./support/test-extractor.js"

const TestLayer = Layer.mergeAll(ContentProcessor.Default, FixtureImporter.Default).pipe(
  Layer.provide(TestExtractorLive),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const organization = Effect.gen(function*() {
  const importer = yield* FixtureImporter
  const result = yield* importer.importOrganization({
    organization: { name: `Processing ${Math.random().toString(36).slice(2, 8)}` },
    teams: [{ key: "red", name: "Red team" }]
  })
  return { orgId: OrganizationId.make(result.organizationId), red: result.ids.teams.red! }
}).pipe(Effect.orDie)

const processed = (orgId: string, contentId: string) =>
  Effect.flatMap(ContentProcessor, (processor) => processor.process({ orgId, contentId })).pipe(Effect.orDie)

interface EvidenceRow {
  readonly item: string
  readonly kind: string
  readonly parent: string | null
  readonly topic: string
  readonly category: string
  readonly quote: string
  readonly char_start: number
  readonly char_end: number
  readonly locator: string
  readonly confidence: number
  readonly chapter_start: number | null
  readonly chapter_end: number | null
}

const evidenceOf = (orgId: string, contentId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<EvidenceRow>`
      SELECT i.name AS item, i.kind, p.name AS parent, t.name AS topic, c.slug AS category, e.quote, e.char_start, e.char_end,
        e.locator, e.confidence, ch.char_start AS chapter_start, ch.char_end AS chapter_end
      FROM evidence e
      JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
      LEFT JOIN items p ON p.org_id = i.org_id AND p.id = i.parent_item_id
      JOIN topics t ON t.org_id = i.org_id AND t.id = i.topic_id
      JOIN spaces s ON s.org_id = t.org_id AND s.id = t.space_id
      JOIN categories c ON c.org_id = s.org_id AND c.id = s.category_id
      LEFT JOIN chapters ch ON ch.org_id = e.org_id AND ch.id = e.chapter_id
      WHERE e.org_id = ${orgId} AND e.content_id = ${contentId}
      ORDER BY e.char_start`).pipe(Effect.orDie)

layer(TestLayer, { excludeTestServices: true })("content processing", (it) => {
  it.effect("a published document becomes chapters, topics, items with exact evidence, related topics and an index", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: travelHandbook, title: "upload.md" })
      const outcome = yield* processed(orgId, contentId)
      expect(outcome._tag === "Processed" && outcome.stages.map((s) => s.stage)).toEqual(["chapters", "extraction", "related", "indexing"])

      const chapters = yield* sql<{ sequence: number; headline: string | null; text: string; char_start: number; char_end: number }>`
        SELECT sequence, headline, text, char_start, char_end FROM chapters WHERE org_id = ${orgId} AND content_id = ${contentId} ORDER BY sequence`
      expect(chapters.map((c) => [c.sequence, c.headline])).toEqual([
        [1, "Travel and Expenses Handbook"],
        [2, "Booking travel"],
        [3, "Expense claims"],
        [4, "Travel safety"]
      ])
      for (const chapter of chapters) expect(travelHandbook.slice(chapter.char_start, chapter.char_end)).toBe(chapter.text)

      const evidence = yield* evidenceOf(orgId, contentId)
      expect(evidence).toHaveLength(handbookItemCount)
      for (const row of evidence) {
        expect(travelHandbook.slice(row.char_start, row.char_end)).toBe(row.quote)
        expect(row.locator).toBe(`chars:${row.char_start}-${row.char_end}`)
        expect(row.confidence).toBe(0.8)
        // The chapter holding the quote.
        expect(row.char_start).toBeGreaterThanOrEqual(row.chapter_start!)
        expect(row.char_end).toBeLessThanOrEqual(row.chapter_end!)
      }
      expect(evidence.map((row) => [row.item, row.kind, row.parent, row.topic, row.category])).toEqual([
        ["Approval", "policy", null, "Booking travel", "operations"],
        ["How to book", "process", null, "Booking travel", "operations"],
        ["Flights", "fact", "How to book", "Booking travel", "operations"],
        ["Hotels", "fact", "How to book", "Booking travel", "operations"],
        ["Receipts", "policy", null, "Expense claims", "finance"],
        ["Deadline", "fact", null, "Expense claims", "finance"],
        ["Per diem", "fact", null, "Expense claims", "finance"],
        ["Emergency line", "fact", null, "Travel safety", "health-safety"],
        ["Safety upgrades", "fact", null, "Travel safety", "health-safety"]
      ])
      // Found ignoring whitespace, kept as the document has it.
      expect(evidence.find((row) => row.item === "Hotels")!.quote).toBe("Hotels: Hotels are booked  through the portal   at the negotiated rate.")
      expect(evidence.some((row) => row.item.startsWith("Ghost"))).toBe(false)

      const spaces = yield* sql<{ name: string; visibility: string; auto_key: string }>`
        SELECT name, visibility, auto_key FROM spaces WHERE org_id = ${orgId} ORDER BY name`
      expect(spaces).toEqual([
        { name: "Finance", visibility: "everyone", auto_key: "finance:everyone:" },
        { name: "Health & Safety", visibility: "everyone", auto_key: "health-safety:everyone:" },
        { name: "Operations", visibility: "everyone", auto_key: "operations:everyone:" }
      ])

      const topics = yield* sql<{ id: string; name: string; origin: string; indexed: boolean }>`
        SELECT id, name, origin, search_vector IS NOT NULL AS indexed FROM topics WHERE org_id = ${orgId} ORDER BY name`
      expect(topics.map((t) => [t.name, t.origin, t.indexed])).toEqual(handbookTopics.map((name) => [name, "extracted", true]))

      // Related both ways, computed; the travel topics relate by their words as well as by their shared source.
      const relations = yield* sql<{ topic: string; related: string; origin: string }>`
        SELECT a.name AS topic, b.name AS related, r.origin FROM topic_relations r
        JOIN topics a ON a.org_id = r.org_id AND a.id = r.topic_id JOIN topics b ON b.org_id = r.org_id AND b.id = r.related_topic_id
        WHERE r.org_id = ${orgId} AND r.kind = 'related' ORDER BY 1, 2`
      expect(relations.length).toBeGreaterThan(0)
      for (const relation of relations) {
        expect(relation.origin).toBe("computed")
        expect(relations).toContainEqual({ topic: relation.related, related: relation.topic, origin: "computed" })
      }
      expect(relations).toContainEqual({ topic: "Booking travel", related: "Travel safety", origin: "computed" })
      const scores = yield* sql<{ score: number }>`
        SELECT score FROM topic_relations r JOIN topics a ON a.id = r.topic_id JOIN topics b ON b.id = r.related_topic_id
        WHERE r.org_id = ${orgId} AND a.name = 'Booking travel' AND b.name IN ('Travel safety', 'Expense claims') ORDER BY b.name DESC`
      // Sharing words scores above sharing only the source.
      expect(scores[0]!.score).toBeGreaterThan(scores[1]!.score)

      const unindexed = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM chapters WHERE org_id = ${orgId} AND content_id = ${contentId} AND search_vector IS NULL`
      expect(unindexed[0]!.n).toBe(0)
      const found = yield* sql<{ headline: string }>`
        SELECT headline FROM chapters WHERE org_id = ${orgId} AND search_vector @@ websearch_to_tsquery('english', 'receipts claims')`
      expect(found.map((row) => row.headline)).toEqual(["Expense claims"])

      expect(yield* contentRecord(orgId, contentId)).toEqual({
        title: "Travel and Expenses Handbook",
        title_final: true,
        summary: "This handbook explains how staff travel and claim expenses.",
        processing_status: "COMPLETED",
        processing_error: null,
        indexing_status: "COMPLETED",
        indexing_error: null
      })
    }))

  it.effect("running the job again, or each stage twice, writes nothing new", () =>
    Effect.gen(function*() {
      const processor = yield* ContentProcessor
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: travelHandbook })
      yield* processed(orgId, contentId)
      const first = yield* snapshot(orgId, contentId)
      expect(first.chapters).toHaveLength(handbookChapterCount)
      expect(first.items).toHaveLength(handbookItemCount)

      yield* processed(orgId, contentId)
      expect(yield* snapshot(orgId, contentId)).toEqual(first)

      const key = { orgId, contentId }
      const content = (yield* processor.load(key)).pipe((found) => found._tag === "Some" ? found.value : undefined)!
      for (let run = 0; run < 2; run++) {
        const chapters = yield* processor.chapters(key, content)
        yield* processor.extract(key, content, chapters)
        yield* processor.relate(key)
        yield* processor.index(key)
      }
      expect(yield* snapshot(orgId, contentId)).toEqual(first)
    }).pipe(Effect.orDie))

  it.effect("the same document twice shares its topics and items, each with its own evidence", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      const one = yield* insertContent({ orgId, body: travelHandbook })
      const two = yield* insertContent({ orgId, body: travelHandbook })
      yield* processed(orgId, one)
      const afterOne = yield* snapshot(orgId, one)
      yield* processed(orgId, two)
      const afterTwo = yield* snapshot(orgId, two)
      expect(afterTwo.items).toEqual(afterOne.items)
      expect(afterTwo.topics).toEqual(afterOne.topics)
      expect(afterTwo.organization.items).toBe(afterOne.organization.items)
      expect(afterTwo.organization.evidence).toBe(2 * handbookItemCount)
    }))

  it.effect("knowledge of admins-only or team content lands in a space with the same audience, never in everyone's", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId, red } = yield* organization
      const open = yield* insertContent({ orgId, body: travelHandbook })
      const admins = yield* insertContent({ orgId, body: travelHandbook, visibility: "admins" })
      const team = yield* insertContent({ orgId, body: travelHandbook, visibility: "teams", teamIds: [red] })
      for (const id of [open, admins, team]) yield* processed(orgId, id)
      const spacesOf = (contentId: string) =>
        sql<{ name: string; visibility: string; teams: string | null }>`
          SELECT DISTINCT s.name, s.visibility,
            (SELECT string_agg(st.team_id, ',') FROM space_teams st WHERE st.org_id = s.org_id AND st.space_id = s.id) AS teams
          FROM evidence e JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
          JOIN topics t ON t.org_id = i.org_id AND t.id = i.topic_id JOIN spaces s ON s.org_id = t.org_id AND s.id = t.space_id
          WHERE e.org_id = ${orgId} AND e.content_id = ${contentId} ORDER BY s.name`
      expect(yield* spacesOf(admins)).toEqual([
        { name: "Finance (admins)", visibility: "admins", teams: null },
        { name: "Health & Safety (admins)", visibility: "admins", teams: null },
        { name: "Operations (admins)", visibility: "admins", teams: null }
      ])
      expect(yield* spacesOf(team)).toEqual([
        { name: "Finance (Red team)", visibility: "teams", teams: red },
        { name: "Health & Safety (Red team)", visibility: "teams", teams: red },
        { name: "Operations (Red team)", visibility: "teams", teams: red }
      ])
      const shared = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM (
          SELECT i.topic_id FROM evidence e JOIN items i ON i.id = e.item_id WHERE e.org_id = ${orgId} AND e.content_id = ${admins}
          INTERSECT
          SELECT i.topic_id FROM evidence e JOIN items i ON i.id = e.item_id WHERE e.org_id = ${orgId} AND e.content_id = ${open}) x`
      expect(shared[0]!.n).toBe(0)
    }))

  it.effect("a live curated topic of the same name in the space takes the items; curated relations are left alone", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* organization
      const first = yield* insertContent({ orgId, body: travelHandbook })
      yield* processed(orgId, first)
      const [operations] = yield* sql<{ id: string }>`SELECT id FROM spaces WHERE org_id = ${orgId} AND auto_key = 'operations:everyone:'`
      yield* sql`INSERT INTO topics (org_id, id, space_id, name, slug, origin) VALUES (${orgId}, 'top_curated_visas', ${operations!.id}, 'Visas', 'visa-rules', 'curated')`
      const [booking] = yield* sql<{ id: string }>`SELECT id FROM topics WHERE org_id = ${orgId} AND name = 'Booking travel'`
      yield* sql`INSERT INTO topic_relations (org_id, topic_id, related_topic_id, kind, origin) VALUES
        (${orgId}, 'top_curated_visas', ${booking!.id}, 'related', 'curated')`
      const body = `## Visa rules\n- Passports: Passports must be valid for six months.\n\n## Booking travel\n- Approval: Every trip must be approved by a manager before booking.\n`
      const second = yield* insertContent({ orgId, body })
      yield* processed(orgId, second)
      const topics = yield* sql<{ id: string; origin: string }>`
        SELECT DISTINCT t.id, t.origin FROM evidence e JOIN items i ON i.id = e.item_id JOIN topics t ON t.id = i.topic_id
        WHERE e.org_id = ${orgId} AND e.content_id = ${second} ORDER BY t.origin`
      expect(topics).toEqual([{ id: "top_curated_visas", origin: "curated" }, { id: booking!.id, origin: "extracted" }])
      const visas = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM topics WHERE org_id = ${orgId} AND slug = 'visa-rules'`
      expect(visas[0]!.n).toBe(1)
      const kept = yield* sql<{ origin: string }>`
        SELECT origin FROM topic_relations WHERE org_id = ${orgId} AND topic_id = 'top_curated_visas' AND related_topic_id = ${booking!.id}`
      expect(kept).toEqual([{ origin: "curated" }])
    }))

  it.effect("processing an edited body again replaces the chapters and drops the evidence it no longer finds", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: travelHandbook })
      yield* processed(orgId, contentId)
      const before = yield* snapshot(orgId, contentId)
      const shorter = travelHandbook.slice(0, travelHandbook.indexOf("## Expense claims"))
      yield* sql`UPDATE content SET body = ${shorter} WHERE org_id = ${orgId} AND id = ${contentId}`
      yield* processed(orgId, contentId)
      const after = yield* snapshot(orgId, contentId)
      expect(after.chapters).toEqual(before.chapters.filter((id) => after.chapters.includes(id)))
      expect(after.chapters).toHaveLength(2)
      expect(after.evidence).toHaveLength(4)
      for (const row of yield* evidenceOf(orgId, contentId)) expect(shorter.slice(row.char_start, row.char_end)).toBe(row.quote)
    }))

  it.effect("content that is not published is left as it is", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: travelHandbook, status: "in_review" })
      expect(yield* processed(orgId, contentId)).toEqual({ _tag: "Skipped", reason: "the content is in_review" })
      expect(yield* contentRecord(orgId, contentId)).toMatchObject({ processing_status: "PENDING", indexing_status: "PENDING" })
      expect((yield* snapshot(orgId, contentId)).chapters).toEqual([])
    }))

  it.effect("a video, which has no body, completes with no chapters and no knowledge", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: null, type: "video", title: "Onboarding video" })
      yield* processed(orgId, contentId)
      expect(yield* contentRecord(orgId, contentId)).toMatchObject({
        title: "Onboarding video",
        processing_status: "COMPLETED",
        indexing_status: "COMPLETED"
      })
      const made = yield* snapshot(orgId, contentId)
      expect([made.chapters, made.evidence]).toEqual([[], []])
    }))
})
