import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { runMigrations } from "@tks/db/migrate"
import { migrations } from "@tks/db/migrations/index"
import { testDatabaseLayer } from "@tks/db/test-database"
import { CompanyRoles } from "../src/company-roles/service.js"
import { MemberProgressList } from "../src/members/progress.js"
import { Members } from "../src/members/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { importedOnce } from "./support/access.js"
import { countedCounts, countsFixture, expectExactCounts, keptCounts } from "./support/member-counts.js"

/**
 * Migration 0016 on a database that already holds organizations: it fills
 * the kept counts from the rows, and the listings answer what they counted
 * before it.
 */
const before = Object.fromEntries(Object.entries(migrations).filter(([key]) => key < "0016"))

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Members.Default, MemberProgressList.Default, CompanyRoles.Default).pipe(
  Layer.provideMerge(testDatabaseLayer({ migrations: before }))
)

const imported = importedOnce({
  first: countsFixture("First", "first.test"),
  second: countsFixture("Second", "second.test")
})

// The import records its act in the journal, whose tables a later migration
// makes: they are made for the import alone and dropped before the pending
// migrations run, so that 0016 is still the first of them.
const journalTables = migrations["0020_events_audit"]!
const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* journalTables
  const organizations = yield* imported
  yield* sql`DROP TABLE audit_events, events`
  return organizations
}).pipe(Effect.orDie)

layer(TestLayer)("the member counts migration", (it) => {
  it.effect("fills every organization's counts from its rows, and the listings answer the same totals as before it", () =>
    Effect.gen(function*() {
      const { first, second } = yield* setup
      // What the listings counted before the migration, with the statements they ran.
      const countedBefore = [yield* countedCounts(first.organizationId), yield* countedCounts(second.organizationId)]
      // 0016 is the first pending; later migrations run after it.
      expect(Object.keys(migrations).filter((key) => !(key in before))[0]).toBe("0016_member_counts")
      expect((yield* runMigrations())[0]).toEqual([16, "member_counts"])
      expect([yield* keptCounts(first.organizationId), yield* keptCounts(second.organizationId)]).toEqual(countedBefore)
      expect([yield* expectExactCounts(first, "ann"), yield* expectExactCounts(second, "ann")]).toEqual(countedBefore)
    }))
})
