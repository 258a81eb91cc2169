import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Layer, Schema, Stream } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { AuditEvent } from "@tks/domain/audit"
import { Caller } from "@tks/domain/caller"
import { OrganizationId, UserId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { Journal } from "../src/journal/journal.js"
import { JournalReads } from "../src/journal/reads.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { allowed } from "./support/access.js"

/**
 * The operator's audit export (`cli audit export`): the organization's
 * whole audit log, oldest first by (occurred_at, id), walked a page at a
 * time, each row exactly the view GET /v1/audit-events gives, and only the
 * rows of [since, until) when given.
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, Journal.Default, JournalReads.Default).pipe(Layer.provideMerge(TestDatabaseLive))

/** An organization with 12 audit rows: its import, then 11 acts, 8 of them in one transaction (so they share a time). */
const setup = Effect.gen(function*() {
  const importer = yield* FixtureImporter
  const journal = yield* Journal
  const sql = yield* SqlClient.SqlClient
  const result = yield* importer.importOrganization({
    organization: { name: "Exported" },
    people: [{ key: "ada", name: "Ada Admin", email: "ada@exported.test", role: "admin" }]
  })
  const orgId = OrganizationId.make(result.organizationId)
  const act = (n: number) =>
    journal.record({
      caller: Caller.system("test"),
      orgId,
      action: "lesson.started",
      targets: [{ type: "lesson", id: `les_${n}` }],
      changes: { n: { new: n } }
    })
  // Acts in transactions of their own have times of their own: the embedded database's clock may
  // give two quick transactions the same one, so each waits a few (real) milliseconds.
  const apart = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
  for (const n of [1, 2, 3]) yield* Effect.zipRight(apart, act(n))
  yield* apart
  yield* sql.withTransaction(Effect.forEach([4, 5, 6, 7, 8, 9, 10, 11], act, { discard: true }))
  const admin = allowed({
    organizationId: orgId,
    userId: UserId.make(result.ids.people.ada!),
    role: "admin",
    teams: [],
    scopes: [],
    tokenId: null
  }, policies.audit.list)
  return { orgId, admin }
}).pipe(Effect.orDie)

const exported = (orgId: string, range: { readonly since?: Date; readonly until?: Date } = {}, pageSize?: number) =>
  Effect.flatMap(JournalReads, (reads) =>
    Stream.runCollect(reads.auditExport({ orgId, since: range.since ?? null, until: range.until ?? null }, pageSize))).pipe(
      Effect.map(Chunk.toArray),
      Effect.orDie
    )

layer(TestLayer)("the audit export", (it) => {
  it.effect("walks the whole log oldest first in pages, each row as GET /v1/audit-events shows it, rows of one time by id", () =>
    Effect.gen(function*() {
      const { admin, orgId } = yield* setup
      const reads = yield* JournalReads
      const newestFirst = (yield* reads.audit(admin, { limit: 100 }).pipe(Effect.orDie)).data
      expect(newestFirst).toHaveLength(12)
      const oldestFirst = [...newestFirst].reverse()
      // Pages of 5 (and of 1, 12 and 100) cut the rows that share a time between pages.
      for (const pageSize of [1, 5, 12, 100]) expect(yield* exported(orgId, {}, pageSize), `pages of ${pageSize}`).toEqual(oldestFirst)
      const n = (row: AuditEvent) => row.changes?.["n"]?.new
      expect(oldestFirst[0]!.action).toBe("organization.imported")
      expect(oldestFirst.slice(1, 4).map(n)).toEqual([1, 2, 3])
      const sameTime = oldestFirst.slice(4)
      expect(new Set(sameTime.map((row) => row.occurredAt)).size).toBe(1)
      expect(sameTime.map((row) => n(row) as number).sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9, 10, 11])
      expect(sameTime.map((row) => row.id)).toEqual(sameTime.map((row) => row.id).sort())
      // Each line's JSON is an AuditEvent as the schema encodes it.
      for (const row of oldestFirst) {
        const line = JSON.parse(JSON.stringify(row))
        expect(yield* Schema.decodeUnknown(AuditEvent)(line).pipe(Effect.flatMap(Schema.encode(AuditEvent)), Effect.orDie)).toEqual(line)
      }
    }))

  it.effect("since (inclusive) and until (exclusive) bound the walk; another organization's rows are never in it", () =>
    Effect.gen(function*() {
      const { orgId } = yield* setup
      const all = yield* exported(orgId)
      const shared = new Date(all[4]!.occurredAt)
      const fromShared = yield* exported(orgId, { since: shared }, 3)
      expect(fromShared.map((row) => row.id)).toEqual(all.slice(4).map((row) => row.id))
      const beforeShared = yield* exported(orgId, { until: shared }, 3)
      expect(beforeShared.map((row) => row.id)).toEqual(all.slice(0, 4).map((row) => row.id))
      expect(yield* exported(orgId, { since: new Date("2100-01-01T00:00:00Z") })).toEqual([])
      const other = yield* setup
      expect((yield* exported(other.orgId)).map((row) => row.id)).not.toContain(all[0]!.id)
    }))
})
