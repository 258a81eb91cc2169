import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ContentProcessor } from "../src/processing/processor.js"
import { contentRecord, insertContent, snapshot } from "./support/content-rows.js"
import { handbookChapterCount, handbookItemCount, handbookTopics, travelHandbook } from "./support/handbook.js"
import { evidenceOf, organization, processed, TestLayer } from "./support/processing.js"

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

})
