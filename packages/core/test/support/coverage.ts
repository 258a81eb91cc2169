import { Effect } from "effect"
import { FixtureImporter } from "../../src/org-import/importer.js"
import type { ImportResult, OrgFixtureInput } from "../../src/org-import/schema.js"

/**
 * Small graphs for the tables kept by triggers (lesson_topics, topic_learning):
 * content records, items citing them, and one import per test file.
 */

/** A content record with one chapter, titled by its key. */
export const doc = (key: string) => ({ key, title: key, chapters: [{ text: `${key} text` }] })

/** A fact item named by its key, citing each of `content` as evidence. */
export const evidencedItem = (key: string, content: ReadonlyArray<string>) => ({
  key,
  name: key,
  kind: "fact" as const,
  evidence: content.map((c) => ({ content: c, quote: key }))
})

/** `fixture` imported on first use; later uses get the same result (the tests of a file share the database). */
export const importOnce = (fixture: OrgFixtureInput): Effect.Effect<ImportResult, never, FixtureImporter> => {
  let imported: ImportResult | undefined
  return Effect.suspend(() =>
    imported !== undefined ? Effect.succeed(imported) : Effect.flatMap(FixtureImporter, (importer) => importer.importOrganization(fixture)).pipe(
      Effect.orDie,
      Effect.tap((result) => Effect.sync(() => (imported = result)))
    )
  )
}
