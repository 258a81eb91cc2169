import { Duration, Effect, Layer } from "effect"
import { NotificationOutbox } from "@tks/core/notifications/outbox"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"

/**
 * `npx tsx scripts/bench/tell.ts [people]`: imports an organization of
 * `people` (20,000 by default; every second one with a phone, every
 * hundredth deactivated) into a fresh database (in-memory PGlite, or a new
 * database on TEST_DATABASE_URL) and times `NotificationOutbox.tell` naming
 * all of them: the outbox rows and their delivery jobs, as an act that
 * reaches everyone writes them. Three runs; the first on a cold cache.
 */
const people = Number(process.argv[2] ?? 20_000)

const notice: Notice = { _tag: "LessonAssigned", lessonId: "les_bench", title: "Forklift safety", dueDate: "2026-12-01T00:00:00.000Z" }

const program = Effect.gen(function*() {
  const importer = yield* FixtureImporter
  const result = yield* importer.importOrganization({
    organization: { name: "Tell Bench" },
    people: Array.from({ length: people }, (_, i) => ({
      key: `p${i}`,
      name: `Person ${i}`,
      email: `p${i}@bench.test`,
      role: i === 0 ? "owner" as const : "viewer" as const,
      phone: i % 2 === 0 ? `+1555${String(i).padStart(7, "0")}` : null,
      status: i % 100 === 99 ? "DEACTIVATED" as const : "ACTIVE" as const
    }))
  })
  const orgId = OrganizationId.make(result.organizationId)
  const userIds = Object.values(result.ids.people)
  const outbox = yield* NotificationOutbox
  const database = process.env["TEST_DATABASE_URL"] ? "PostgreSQL (TEST_DATABASE_URL)" : "embedded PGlite (in memory)"
  for (let run = 1; run <= 3; run++) {
    const [elapsed, written] = yield* Effect.timed(outbox.tell({ orgId, userIds, notice }))
    console.log(`tell() naming ${userIds.length} people on ${database}, run ${run}: ${written} rows and their jobs in ${Duration.format(elapsed)}`)
  }
})

Effect.runPromise(
  program.pipe(Effect.provide(Layer.mergeAll(FixtureImporter.Default, NotificationOutbox.Default).pipe(Layer.provideMerge(TestDatabaseLive))))
).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
