import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { startBlackholeProxy } from "../../../packages/db/test/support/blackhole-proxy.js"
import { freePort, type ServerProcess, startServerProcess, waitReady } from "../test/support/server-process.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "../test/support/shared-database.js"
import { budget } from "./budget.js"
import { outboxState, pendingDocuments, verify } from "./faults/checks.js"
import { acknowledged, runLoad, type Write } from "./faults/load.js"
import { watchMailbox } from "./faults/mailbox.js"

/**
 * Database faults under a mixed write load: the server is a real process
 * whose only way to its database is a TCP proxy this test owns, so the
 * network can refuse, go silent or reset, and the server itself can be
 * SIGKILLed and started again. Afterwards every write is read back.
 */
const REQUEST_TIMEOUT_MS = 2_000
/** A lesson assignment's own deadline: 30 s, or REQUEST_TIMEOUT_MS when that is longer (the edge gives the big transaction room). */
const ASSIGNMENT_DEADLINE_MS = Math.max(REQUEST_TIMEOUT_MS, 30_000)
const deadlineOf = (write: Write) => (write.kind === "assignment" ? ASSIGNMENT_DEADLINE_MS : REQUEST_TIMEOUT_MS)
/** How long each fault lasts, and how long the load runs between faults. */
const FAULT_MS = budget(3_000, 8_000)
const CALM_MS = budget(3_000, 6_000)
const ROUNDS = budget(1, 3)
const WRITERS = 6
/**
 * Writers are paced: what the run is about is its faults, not its load, and
 * unpaced, a fast machine ran out of assignment pairs within seconds and
 * sent a quarter of its writes (then all of them) as documents, thousands of
 * them in the full run, whose queued processing on the embedded database
 * outlasted the run.
 */
const PACE_MS = budget(300, 400)
/** Assigning allows each token 30 calls a minute: the load spreads over many admins' tokens. */
const ADMINS = 24
/** Three writes in four are assignments, each of a lesson to a person not yet assigned it. */
const LESSONS = 8
const LEARNERS = budget(80, 300)

const TestLayer = FixtureImporter.Default.pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const fixture: OrgFixtureInput = {
  organization: { name: "Faults Org" },
  people: [
    ...Array.from({ length: ADMINS }, (_, i) => ({ key: `admin${i}`, name: `Admin ${i}`, email: `admin${i}@faults.test`, role: "admin" as const, tokenScopes: ["training:assign", "content:write"] as const })),
    ...Array.from({ length: LEARNERS }, (_, i) => ({ key: `learner${i}`, name: `Learner ${i}`, email: `learner${i}@faults.test`, role: "viewer" as const }))
  ],
  lessons: Array.from({ length: LESSONS }, (_, i) => ({ key: `lesson${i}`, title: `Drill ${i}` }))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Fault = "refuse" | "blackhole" | "reset" | "kill"

interface Recovery {
  readonly fault: Fault
  readonly restoredAt: number
  /** From the database's (or the server's) return to the end of the first acknowledged write started after it. */
  ms: number
}

layer(TestLayer, { excludeTestServices: true, timeout: 300_000 })("database faults under a write load", (it) => {
  it.scoped(
    "refused, black-holed and reset connections and a SIGKILLed server lose no acknowledged write, half-apply none, keep the deadline, recover within 2 s, finish queued jobs and deliver each message once",
    () =>
      Effect.gen(function*() {
        const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) => importer.importOrganization(fixture)))
        const orgId = imported.organizationId
        const databaseUrl = yield* SharedDatabaseUrl
        const proxy = yield* startBlackholeProxy(Redacted.make(databaseUrl))
        const dir = mkdtempSync(join(tmpdir(), "tks-faults-"))
        const mailbox = watchMailbox(join(dir, "mailbox"))
        yield* Effect.addFinalizer(() => Effect.sync(mailbox.close))
        const port = yield* freePort
        const env = {
          DATABASE_URL: Redacted.value(proxy.url),
          REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
          DB_POOL_MAX: "4",
          DB_CONNECT_TIMEOUT_MS: "1000",
          DB_STATEMENT_TIMEOUT_MS: "1500",
          RATE_LIMIT_PER_MINUTE: "100000",
          WORKER_POLL_MS: "100",
          WORKER_LEASE_MS: "3000",
          WORKER_RETRY_BASE_MS: "100",
          MAILBOX_DIR: join(dir, "mailbox"),
          LOG_LEVEL: "Error"
        }
        const start = Effect.gen(function*() {
          const server = yield* startServerProcess(env, { port })
          const ready = yield* waitReady(server)
          if (!ready) return yield* Effect.dieMessage(`the server did not start: ${server.stderr()}`)
          return server
        })
        let server: ServerProcess = yield* start

        let stopped = false
        let phase = "calm"
        const load = runLoad({
          baseUrl: () => `http://127.0.0.1:${port}`,
          tokens: Array.from({ length: ADMINS }, (_, i) => imported.tokens[`admin${i}`]!),
          lessonIds: Object.values(imported.ids.lessons),
          userIds: Object.entries(imported.ids.people).filter(([key]) => key.startsWith("learner")).map(([, id]) => id),
          clientTimeoutMs: ASSIGNMENT_DEADLINE_MS + 10_000,
          phase: () => phase,
          paceMs: PACE_MS
        }, WRITERS, () => stopped)

        const recoveries: Array<Recovery> = []
        const kills: Array<{ readonly from: number; readonly to: number }> = []
        yield* Effect.promise(() => sleep(CALM_MS))
        for (let round = 0; round < ROUNDS; round++) {
          for (const fault of ["refuse", "blackhole", "reset", "kill"] as const) {
            phase = fault
            if (fault === "refuse") yield* proxy.refuse
            if (fault === "blackhole") yield* proxy.blackhole
            if (fault === "reset") yield* proxy.refuse
            if (fault === "kill") {
              const from = Date.now()
              server.child.kill("SIGKILL")
              yield* server.exited
              server = yield* start
              kills.push({ from, to: Date.now() })
            } else {
              if (fault !== "reset") yield* Effect.promise(() => sleep(FAULT_MS))
              yield* proxy.restore
            }
            phase = "calm"
            recoveries.push({ fault, restoredAt: Date.now(), ms: Infinity })
            yield* Effect.promise(() => sleep(CALM_MS))
          }
        }
        stopped = true
        const writes: ReadonlyArray<Write> = yield* Effect.promise(() => load)

        // The queued work of the whole run, finished by the server that is up
        // now: waited for while it moves (the full run queues thousands of
        // documents), given up on after a minute without progress.
        let stalledSince = Date.now()
        let left = Number.POSITIVE_INFINITY
        while (Date.now() - stalledSince < 60_000) {
          const outbox = yield* Effect.orDie(outboxState(orgId))
          const documents = yield* Effect.orDie(pendingDocuments(orgId))
          const pending = outbox.pending + documents
          if (pending === 0) break
          if (pending < left) {
            left = pending
            stalledSince = Date.now()
          }
          yield* Effect.sleep(Duration.millis(250))
        }

        for (const recovery of recoveries) {
          const first = writes.filter((write) => write.startedAt >= recovery.restoredAt && acknowledged(write)).sort((a, b) => a.endedAt - b.endedAt)[0]
          if (first !== undefined) recovery.ms = first.endedAt - recovery.restoredAt
        }
        const killed = (write: Write) => kills.some((kill) => write.startedAt <= kill.to && write.endedAt >= kill.from)
        const overDeadline = writes
          .filter((write) => !killed(write) && write.endedAt - write.startedAt > deadlineOf(write) + 1_000)
          .map((write) => `${write.kind} sent during ${write.phase} answered ${write.status} after ${write.endedAt - write.startedAt} ms`)
        const verdict = yield* Effect.orDie(verify(orgId, writes))
        const outbox = yield* Effect.orDie(outboxState(orgId))
        const duplicates = [...mailbox.deliveries.entries()].filter(([, count]) => count > 1).map(([name, count]) => `${name} x${count}`)
        const unanswered = [...new Set(writes.filter((write) => write.status === 0).map((write) => String(write.json).slice(0, 120)))].slice(0, 3)
        const statuses = new Map<number, number>()
        for (const write of writes) statuses.set(write.status, (statuses.get(write.status) ?? 0) + 1)

        console.log(
          `database faults: ${writes.filter(acknowledged).length} writes acknowledged of ${writes.length} ` +
            `(by status {${[...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(", ")}}), ` +
            `${verdict.checked} checked, ${verdict.lost.length} lost, ${verdict.halfApplied.length} half-applied, ${verdict.unfinished.length} jobs unfinished; ` +
            `${outbox.sent} messages sent, ${mailbox.deliveries.size} delivered, ${duplicates.length} twice; ` +
            `unanswered: ${JSON.stringify(unanswered)}; recovery: ${recoveries.map((r) => `${r.fault} ${Number.isFinite(r.ms) ? `${r.ms} ms` : "never"}`).join(", ")}`
        )

        expect(verdict.lost, "acknowledged writes that are not there").toEqual([])
        // A write the database could not take is refused as unavailable (503), never a 500.
        expect(
          writes.filter((write) => write.status >= 500 && write.status !== 503).map((write) => `${write.kind} sent during ${write.phase}: ${write.status} ${JSON.stringify(write.json)}`),
          "writes answered with a 5xx other than 503"
        ).toEqual([])
        expect(verdict.halfApplied, "unacknowledged writes applied in part").toEqual([])
        expect(verdict.unfinished, "documents whose queued processing never finished").toEqual([])
        expect(overDeadline, `answers later than their route's deadline + 1 s (REQUEST_TIMEOUT_MS=${REQUEST_TIMEOUT_MS})`).toEqual([])
        expect(
          recoveries.filter((r) => r.fault !== "kill" && !(r.ms <= 2_000)).map((r) => `${r.fault}: ${r.ms} ms`),
          "the first write after the database's return took over 2 s"
        ).toEqual([])
        expect({ pending: outbox.pending, twiceSent: outbox.twiceSent, deliveredTwice: duplicates }).toEqual({ pending: 0, twiceSent: 0, deliveredTwice: [] })
      }),
    // A time limit only against a hang: the run's figures are printed, not asserted against a clock.
    budget(600_000, 2_400_000)
  )
})
