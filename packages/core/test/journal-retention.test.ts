import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { Caller } from "@tks/domain/caller"
import { EVENT_RETENTION_DAYS } from "@tks/domain/events"
import { OrganizationId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { Journal } from "../src/journal/journal.js"
import { JournalReads } from "../src/journal/reads.js"
import { JournalReadsRepo } from "../src/journal/reads-repo.js"
import { sweepExpiredEvents } from "../src/journal/sweep.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { actorIn, allowed } from "./support/access.js"
import { eventually } from "./support/jobs.js"

/**
 * The feed keeps an event 30 days: an older one is out of the feed at once,
 * and the hourly sweep deletes it; the audit log is the organization's
 * record and keeps its rows.
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, Journal.Default, JournalReads.Default, JournalReadsRepo.Default).pipe(Layer.provideMerge(TestDatabaseLive))

layer(TestLayer, { excludeTestServices: true })("the event feed's retention", (it) => {
  it.effect("an event older than 30 days is not in the feed and the sweep deletes it; newer events and every audit row stay", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const journal = yield* Journal
      const reads = yield* JournalReads
      const result = yield* (yield* FixtureImporter).importOrganization({
        organization: { name: "Retention" },
        people: [{ key: "ada", name: "Ada Admin", email: "ada@retention.test", role: "admin" }]
      })
      const orgId = OrganizationId.make(result.organizationId)
      const personId = result.ids.people["ada"]!
      const enrolled = (n: number) =>
        journal.record({
          caller: Caller.system("test"),
          orgId,
          action: "enrollment.created",
          targets: [{ type: "lesson", id: "les_1" }],
          events: [{ type: "enrollment.created", personId, data: { enrollment: { id: `enr_${n}` }, lesson: { id: "les_1", title: "Induction" } } }]
        })
      const [old] = yield* enrolled(1)
      const [borderline] = yield* enrolled(2)
      const [fresh] = yield* enrolled(3)
      yield* sql`UPDATE events SET occurred_at = now() - make_interval(days => ${EVENT_RETENTION_DAYS}, secs => 1) WHERE position = ${old!}::bigint`
      yield* sql`UPDATE events SET occurred_at = now() - make_interval(days => ${EVENT_RETENTION_DAYS}, secs => -60) WHERE position = ${borderline!}::bigint`

      const admin = allowed(actorIn(orgId, "admin"), policies.events.feed)
      // The feed shows an event once every older transaction on the server ended (another test's among them).
      const feed = reads.feed(admin, { limit: 100 }).pipe(Effect.map((page) => page.data.map((event) => String(event.position))))
      yield* eventually(Effect.map(feed, (positions) => positions.length >= 2))
      expect(yield* feed).toEqual([borderline, fresh])

      yield* sweepExpiredEvents
      const kept = yield* sql<{ position: string }>`SELECT position::text AS position FROM events WHERE org_id = ${orgId} ORDER BY position`
      expect(kept.map((row) => row.position)).toEqual([borderline, fresh])
      const [audit] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_events WHERE org_id = ${orgId} AND action = 'enrollment.created'`
      expect(audit!.n).toBe(3)
    }))
})
