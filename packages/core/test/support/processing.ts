import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { FixtureImporter } from "../../src/org-import/importer.js"
import { ContentProcessor } from "../../src/processing/processor.js"
import { TestExtractorLive } from "./test-extractor.js"

/** The pipeline with the test extractor over a fresh database. */
export const TestLayer = Layer.mergeAll(ContentProcessor.Default, FixtureImporter.Default).pipe(
  Layer.provide(TestExtractorLive),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

/** A fresh organization (its 14 categories) with one team, "Red team". */
export const organization = Effect.gen(function*() {
  const importer = yield* FixtureImporter
  const result = yield* importer.importOrganization({
    organization: { name: `Processing ${Math.random().toString(36).slice(2, 8)}` },
    teams: [{ key: "red", name: "Red team" }]
  })
  return { orgId: OrganizationId.make(result.organizationId), red: result.ids.teams.red! }
}).pipe(Effect.orDie)

/** Runs the whole pipeline on the content now. */
export const processed = (orgId: string, contentId: string) =>
  Effect.flatMap(ContentProcessor, (processor) => processor.process({ orgId, contentId })).pipe(Effect.orDie)

export interface EvidenceRow {
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

/** The content's evidence with its item, parent, topic, category and chapter range, in document order. */
export const evidenceOf = (orgId: string, contentId: string) =>
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

