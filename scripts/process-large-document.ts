/**
 * `npx tsx scripts/process-large-document.ts [--chars 500000] [--extractor test|server] [--database-url URL]`
 *
 * Generates a markdown handbook of `--chars` characters (H2 sections with H3
 * parts, paragraphs of policy prose, bullet rules), stores it as published
 * content of a fresh organization, runs the content-processing pipeline on
 * it (the job's own code, ContentProcessor.process) and prints each stage's
 * time; then runs it again, as a retried job would (nothing new is written).
 *
 * --extractor test    the deterministic test extractor (packages/core/test/support), the default
 * --extractor server  the extractor the server composition uses (@tks/adapters/extraction/live;
 *                     the local NLP adapter once it is wired there)
 * --database-url      a PostgreSQL server to make a scratch database on (default: in-memory PGlite)
 */
import { parseArgs } from "node:util"
import { ConfigProvider, Effect, Layer, Logger, LogLevel } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { ContentProcessor } from "@tks/core/processing/processor"
import { testDatabaseLayer } from "@tks/db/test-database"
import { extractors } from "../apps/server/test/support/extractors.js"
import { largeDocument, processLargeDocument } from "../packages/core/test/support/large-document.js"

const { values: flags } = parseArgs({
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--")),
  options: {
    chars: { type: "string", default: "500000" },
    extractor: { type: "string", default: "test" },
    "database-url": { type: "string" }
  }
})

const databaseUrl = (flags["database-url"] ?? "").trim()
const extractor = flags.extractor === "server" ? extractors.server : extractors.test
const body = largeDocument(Number(flags.chars))

const Services = Layer.mergeAll(ContentProcessor.Default, FixtureImporter.Default).pipe(
  Layer.provide(extractor),
  Layer.provideMerge(testDatabaseLayer())
)

processLargeDocument(body, 2).pipe(
  Effect.tap((runs) =>
    Effect.sync(() => {
      console.log(`document: ${body.length} characters; extractor: ${flags.extractor}; database: ${databaseUrl === "" ? "embedded PGlite (in memory)" : "PostgreSQL"}`)
      runs.forEach((run, i) => {
        console.log(`\n${i === 0 ? "first run" : "again (a retried job)"}\n| stage | ms |\n|---|---:|`)
        for (const stage of run.stages) console.log(`| ${stage.stage} | ${stage.ms.toFixed(0)} |`)
        console.log(`| all, with status writes | ${run.totalMs.toFixed(0)} |`)
        console.log(`made: ${JSON.stringify(run.made)}`)
      })
    })
  ),
  Effect.provide(Services),
  Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["TEST_DATABASE_URL", databaseUrl]]))),
  Effect.runPromise
).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
