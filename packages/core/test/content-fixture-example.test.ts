import { readFileSync } from "node:fs"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

/** The JSON examples of docs/fixtures.md that hold a library. */
const libraryExamples = (): ReadonlyArray<unknown> => {
  const doc = readFileSync(new URL("../../../docs/fixtures.md", import.meta.url), "utf8")
  return [...doc.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? "")
    .filter((block) => block.includes("\"content\": ["))
    .map((block) => JSON.parse(block) as unknown)
}

layer(TestLayer)("docs/fixtures.md: the library example", (it) => {
  it.effect("imports as documented: chapters written out as the body, evidence on its quote, the review request on its record", () =>
    Effect.gen(function*() {
      const examples = libraryExamples()
      expect(examples).toHaveLength(1)
      const result = yield* (yield* FixtureImporter).importOrganization(examples[0])
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const evidence = yield* sql<{ quote: string; body: string; char_start: number; char_end: number; status: string }>`
        SELECT e.quote, c.body, e.char_start, e.char_end, c.status FROM evidence e JOIN content c ON c.org_id = e.org_id AND c.id = e.content_id
        WHERE e.org_id = ${org}`
      expect(evidence).toHaveLength(1)
      const [found] = evidence
      expect(found!.body).toBe("## Before a shift\n\nCheck the forks for cracks.")
      expect(found!.body.slice(found!.char_start, found!.char_end)).toBe(found!.quote)
      const requests = yield* sql<{ content_id: string; title: string; status: string }>`
        SELECT content_id, title, status FROM content_review_requests WHERE org_id = ${org}`
      expect(requests).toEqual([{ content_id: result.ids.content["dock-proposal"], title: "Dock Safety Proposal", status: "PENDING" }])
      const jobs = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE org_id = ${org}`
      expect(jobs[0]?.n).toBe(0)
    }))
})
