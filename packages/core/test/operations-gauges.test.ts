import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { narrationMonthlyAllowance } from "@tks/domain/narration"
import { JobsRepo } from "../src/jobs/repo.js"
import { OperatingGauges } from "../src/operations/gauges.js"
import { insertOrganization } from "./support/jobs.js"
import { startMonthAt } from "./support/narration-rows.js"

const TestLayer = Layer.mergeAll(OperatingGauges.Default, JobsRepo.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const queueOf = (kind: string) =>
  Effect.flatMap(OperatingGauges, (gauges) => gauges.read).pipe(
    Effect.map((reading) => reading.queues.find((queue) => queue.kind === kind)),
    Effect.orDie
  )

const enqueue = (orgId: Parameters<JobsRepo["enqueue"]>[0]["orgId"], subjectId: string) =>
  Effect.flatMap(JobsRepo, (repo) => repo.enqueue({ orgId, kind: "content.process", subjectId }))

// Puts a job in a state the workers would leave it in (a retry scheduled, a lease held or lapsed).
const setJob = (subjectId: string, assignment: "later" | "held" | "lapsed") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    switch (assignment) {
      case "later":
        return sql`UPDATE jobs SET run_after = now() + interval '1 hour' WHERE subject_id = ${subjectId}`
      case "held":
        return sql`UPDATE jobs SET status = 'RUNNING', lease_owner = 'w', lease_expires_at = now() + interval '1 hour' WHERE subject_id = ${subjectId}`
      case "lapsed":
        return sql`UPDATE jobs SET status = 'RUNNING', lease_owner = 'w', lease_expires_at = now() - interval '30 seconds' WHERE subject_id = ${subjectId}`
    }
  }).pipe(Effect.orDie)

layer(TestLayer, { excludeTestServices: true })("the operator's gauges", (it) => {
  it.effect("a queue counts jobs pending (a scheduled retry too) and running past their lease; its age is the longest wait of a due job", () =>
    Effect.gen(function*() {
      const org = yield* insertOrganization("gauges")
      // Every kind is reported, an empty one as 0.
      expect(yield* queueOf("content.process")).toEqual({ kind: "content.process", depth: 0, oldestAgeSeconds: 0 })
      yield* enqueue(org, "cnt_later")
      yield* setJob("cnt_later", "later")
      yield* enqueue(org, "cnt_held")
      yield* setJob("cnt_held", "held")
      // A retry waits in the queue but is not due: nothing has waited yet; a held lease is not waiting.
      expect(yield* queueOf("content.process")).toEqual({ kind: "content.process", depth: 1, oldestAgeSeconds: 0 })
      yield* enqueue(org, "cnt_lapsed")
      yield* setJob("cnt_lapsed", "lapsed")
      const lapsed = yield* queueOf("content.process")
      expect(lapsed?.depth).toBe(2)
      // Waiting since its lease lapsed, 30 s ago.
      expect(lapsed?.oldestAgeSeconds).toBeGreaterThanOrEqual(30)
      expect(lapsed?.oldestAgeSeconds).toBeLessThan(3600)
    }))

  it.effect("narration: an organization that narrated this month has used and remaining characters; the others are not listed", () =>
    Effect.gen(function*() {
      const narrated = yield* insertOrganization("narrated")
      const quiet = yield* insertOrganization("quiet")
      yield* startMonthAt(narrated, 4_000).pipe(Effect.orDie)
      const reading = yield* Effect.flatMap(OperatingGauges, (gauges) => gauges.read).pipe(Effect.orDie)
      expect(reading.narration.find((row) => row.organizationId === narrated)).toEqual({
        organizationId: narrated,
        used: 4_000,
        remaining: narrationMonthlyAllowance - 4_000
      })
      expect(reading.narration.find((row) => row.organizationId === quiet)).toBeUndefined()
      expect(reading.outbox).toEqual({ pending: 0, lagSeconds: 0 })
    }))
})
