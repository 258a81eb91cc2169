import { Duration, Effect, Layer } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { TestDatabaseLive } from "@tks/db/test-database"
import { largeFixture } from "./import-fixture.js"

/**
 * `npx tsx scripts/bench/import.ts [people] [roles] [topics] [content]`:
 * imports a generated organization (20,000 people, 500 roles, 5,000 topics
 * and 20,000 content records by default) into a fresh database (in-memory
 * PGlite, or a new database on TEST_DATABASE_URL) and prints how long it took.
 */
const people = Number(process.argv[2] ?? 20_000)
const roles = Number(process.argv[3] ?? 500)
const topics = Number(process.argv[4] ?? 5_000)
const content = Number(process.argv[5] ?? 20_000)

const program = Effect.gen(function*() {
  const fixture = largeFixture({ people, roles, topics, content })
  // Through JSON, as `pnpm cli org import` receives it.
  const input: unknown = JSON.parse(JSON.stringify(fixture))
  const importer = yield* FixtureImporter
  const [elapsed, result] = yield* Effect.timed(importer.importOrganization(input))
  const database = process.env["TEST_DATABASE_URL"] ? "PostgreSQL (TEST_DATABASE_URL)" : "embedded PGlite (in memory)"
  console.log(`imported ${people} people / ${roles} roles / ${topics} topics / ${content} content into ${database} in ${Duration.format(elapsed)}`)
  const created = Object.fromEntries(Object.entries(result.ids).map(([kind, ids]) => [kind, Object.keys(ids).length]))
  console.log(JSON.stringify({ ...created, tokens: Object.keys(result.tokens).length }))
})

Effect.runPromise(program.pipe(Effect.provide(FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))))).catch(
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  }
)
