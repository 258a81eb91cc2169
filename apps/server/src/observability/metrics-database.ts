import { SqlClient } from "@effect/sql"
import type { Attributes, BatchObservableCallback, Meter, Observable } from "@opentelemetry/api"
import { Duration, Effect, Layer, Option, Runtime, type Scope } from "effect"
import { OperatingGauges } from "@tks/core/operations/gauges"
import { poolStatistics, timeConnectionWaits } from "@tks/db/pool-metrics"
import { Metrics } from "./metrics.js"

// The database client conventions are still "development" in OpenTelemetry,
// so their names are written here rather than imported from its incubating entry.
const POOL: Attributes = { "db.client.connection.pool.name": "tks" }
const IDLE: Attributes = { ...POOL, "db.client.connection.state": "idle" }
const USED: Attributes = { ...POOL, "db.client.connection.state": "used" }

const WAIT_BOUNDARIES = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]

// A collection waits for the gauges' statements at most this long; then they are left out of it.
const READ_TIMEOUT = Duration.seconds(10)

/** Observes `observables` with `callback` on every collection, for the scope. */
const observeEach = (meter: Meter, observables: ReadonlyArray<Observable>, callback: BatchObservableCallback) =>
  Effect.acquireRelease(
    Effect.sync(() => meter.addBatchObservableCallback(callback, [...observables])),
    () => Effect.sync(() => meter.removeBatchObservableCallback(callback, [...observables]))
  )

/** The pool's connections by state, its size, the callers waiting and how long each waited. */
const poolInstruments = (meter: Meter, sql: SqlClient.SqlClient): Effect.Effect<void, never, Scope.Scope> => {
  const statistics = poolStatistics(sql)
  if (statistics === undefined) return Effect.void
  const level = (name: string, unit: string, description: string) => meter.createObservableUpDownCounter(name, { description, unit })
  const count = level("db.client.connection.count", "{connection}", "Connections of the pool, by state (idle, used)")
  const max = level("db.client.connection.max", "{connection}", "The most connections the pool opens (DB_POOL_MAX)")
  const pending = level("db.client.connection.pending_requests", "{request}", "Statements waiting for a connection of the pool")
  const waits = meter.createHistogram("db.client.connection.wait_time", {
    description: "Time a statement waited for a connection of the pool",
    unit: "s",
    advice: { explicitBucketBoundaries: WAIT_BOUNDARIES }
  })
  return Effect.zipRight(
    observeEach(meter, [count, max, pending], (result) => {
      const now = statistics()
      result.observe(count, now.idle, IDLE)
      result.observe(count, now.total - now.idle, USED)
      result.observe(max, now.max, POOL)
      result.observe(pending, now.waiting, POOL)
    }),
    timeConnectionWaits(sql, (seconds) => waits.record(seconds, POOL))
  )
}

/** The backlog: job queues by kind, the outbox, and narration allowances, read from the database on each collection. */
const backlogInstruments = (meter: Meter) =>
  Effect.gen(function*() {
    const gauges = yield* OperatingGauges
    const runtime = yield* Effect.runtime<never>()
    const gauge = (name: string, unit: string, description: string) => meter.createObservableGauge(name, { description, unit })
    const depth = gauge("tks.jobs.queue_depth", "{job}", "Jobs waiting to run (due or scheduled for a retry), by kind")
    const oldest = gauge("tks.jobs.oldest_age", "s", "How long the longest-waiting due job has waited since it became due, by kind")
    const outboxPending = gauge("tks.outbox.pending", "{notification}", "Notifications written and not yet delivered, skipped or given up")
    const deliveryLag = gauge("tks.outbox.delivery_lag", "s", "Age of the oldest notification not yet delivered")
    const characters = gauge("tks.narration.characters", "{character}", "This month's narration allowance by organization, used and remaining")
    // Not traced: a scrape every few seconds would fill the traces with its statements.
    const read = gauges.read.pipe(
      Effect.timeout(READ_TIMEOUT),
      Effect.withTracerEnabled(false),
      Effect.tapErrorCause((cause) => Effect.logWarning("metrics: the backlog gauges could not be read", cause)),
      Effect.option
    )
    yield* observeEach(meter, [depth, oldest, outboxPending, deliveryLag, characters], (result) =>
      Runtime.runPromise(runtime)(read).then((reading) => {
        if (Option.isNone(reading)) return
        for (const queue of reading.value.queues) {
          result.observe(depth, queue.depth, { kind: queue.kind })
          result.observe(oldest, queue.oldestAgeSeconds, { kind: queue.kind })
        }
        result.observe(outboxPending, reading.value.outbox.pending)
        result.observe(deliveryLag, reading.value.outbox.lagSeconds)
        for (const organization of reading.value.narration) {
          result.observe(characters, organization.used, { organization: organization.organizationId, state: "used" })
          result.observe(characters, organization.remaining, { organization: organization.organizationId, state: "remaining" })
        }
      }))
  })

/**
 * The database's instruments, when metrics are on: the connection pool of
 * this process, and the backlog gauges, which are the whole database's
 * (every process reports the same values). Needs the database; with metrics
 * off it makes nothing and reads nothing.
 */
export const DatabaseMetricsLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const { meter } = yield* Metrics
    if (Option.isNone(meter)) return
    yield* poolInstruments(meter.value, yield* SqlClient.SqlClient)
    yield* backlogInstruments(meter.value)
  })
).pipe(Layer.provide(OperatingGauges.Default))
