import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { NotificationOutbox } from "@tks/core/notifications/outbox"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"
import { json, scriptedServer } from "../../../packages/adapters/test/support/scripted-server.js"
import { smtpFake } from "../../../packages/adapters/test/support/smtp-fake.js"
import { type ServerProcess, startServerProcess, stop, waitUntil } from "./support/server-process.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "./support/shared-database.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, NotificationOutbox.Default).pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

/** Each email waits this long for the server's answer to its DATA: deliveries are in flight when the server is stopped. */
const SMTP_DELAY_MS = 1_500
const LEASE_MS = 1_500
const accountSid = "AC00000000000000000000000000000042"

const notice: Notice = { _tag: "LessonAssigned", lessonId: "les_restart", title: "Forklift safety", dueDate: null }

/** Five people, three with a phone: eight messages. */
const tellFive = (name: string) =>
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const keys = ["ann", "bob", "cat", "dev", "eve"] as const
    const imported = yield* Effect.orDie(importer.importOrganization({
      organization: { name },
      people: keys.map((key, i) => ({
        key,
        name: `Person ${key}`,
        email: `${key}@restart.test`,
        role: i === 0 ? "owner" as const : "viewer" as const,
        phone: i < 3 ? `+1555010000${i}` : null
      }))
    }))
    const orgId = OrganizationId.make(imported.organizationId)
    const outbox = yield* NotificationOutbox
    expect(yield* Effect.orDie(outbox.tell({ orgId, userIds: keys.map((key) => imported.ids.people[key]!), notice }))).toBe(8)
    return orgId
  })

/** The fakes of the mail relay and of Twilio, and a server process sending to them. */
const fakes = Effect.gen(function*() {
  const smtp = yield* smtpFake({ delayMs: SMTP_DELAY_MS })
  let sids = 0
  const twilio = yield* scriptedServer(() => json(201, { sid: `SM${String(++sids).padStart(32, "0")}`, status: "queued" }))
  const url = yield* SharedDatabaseUrl
  const start = (id: string) =>
    startServerProcess({
      DATABASE_URL: url,
      SEED_DEMO: "false",
      DB_POOL_MAX: "4",
      LOG_LEVEL: "Warning",
      WORKER_ID: id,
      WORKER_CONCURRENCY: "2",
      WORKER_POLL_MS: "100",
      WORKER_LEASE_MS: String(LEASE_MS),
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      MAIL_FROM: "Training <training@restart.test>",
      TWILIO_BASE_URL: twilio.baseUrl,
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: "restart-token",
      SMS_FROM: "+15550109999"
    })
  /** Every arrival at the fakes: the message id of each email (its Message-ID) and text (its Idempotency-Key), in order. */
  const arrivals = () => [
    ...smtp.received.map((mail) => mail.notificationId ?? "?"),
    ...twilio.requests.map((request) => String(request.headers["idempotency-key"]))
  ]
  return { smtp, twilio, start, arrivals }
})

interface Row {
  readonly id: string
  readonly channel: string
  readonly status: string
}

const notificationsOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<Row>`SELECT id, channel, status FROM notifications WHERE org_id = ${orgId} ORDER BY id`).pipe(
    Effect.orDie
  )

/**
 * Eight messages told, the fakes up, and a first server process delivering
 * them, caught while an email's DATA has arrived whole and waits for the
 * relay's answer.
 */
const midDelivery = (orgName: string, serverId: string) =>
  Effect.gen(function*() {
    const orgId = yield* tellFive(orgName)
    const sending = yield* fakes
    const first = yield* sending.start(serverId)
    yield* waitUntil(first, Effect.sync(() => sending.smtp.received.some((mail) => !mail.acknowledged)))
    return { orgId, first, ...sending }
  })

/** Waits until `server` has settled every notification of `orgId`; each must be SENT. */
const allSentBy = (server: ServerProcess, orgId: string) =>
  Effect.gen(function*() {
    yield* waitUntil(server, Effect.map(notificationsOf(orgId), (rows) => rows.every((row) => row.status !== "PENDING")))
    const rows = yield* notificationsOf(orgId)
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => "SENT"))
    return rows
  })

const countsOf = (ids: ReadonlyArray<string>) => {
  const counts = new Map<string, number>()
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1)
  return counts
}

// Real processes, a real SMTP server and a loopback Twilio on real time.
layer(TestLayer, { excludeTestServices: true })("notifications delivered by server processes", (it) => {
  it.scoped("stopping the server (SIGTERM) mid-delivery and starting it again delivers each message exactly once to the fakes", () =>
    Effect.gen(function*() {
      const { orgId, first, smtp, start, arrivals } = yield* midDelivery("Restart Term Org", "first")
      expect(yield* stop(first)).toBe(0)
      // The shutdown waited for the messages in flight: each was answered and recorded as SENT.
      expect(smtp.received.every((mail) => mail.acknowledged)).toBe(true)
      const afterFirst = yield* notificationsOf(orgId)
      const sentByFirst = afterFirst.filter((row) => row.status === "SENT").map((row) => row.id)
      expect(new Set(arrivals())).toEqual(new Set(sentByFirst))
      // ...and left the rest to the next start.
      expect(afterFirst.filter((row) => row.status === "PENDING").length).toBeGreaterThan(0)

      const second = yield* start("second")
      const rows = yield* allSentBy(second, orgId)
      // Every message arrived, and none twice.
      const counts = countsOf(arrivals())
      expect([...counts.keys()].sort()).toEqual(rows.map((row) => row.id))
      expect([...counts.values()]).toEqual(rows.map(() => 1))
      expect(smtp.received.map((mail) => mail.messageId).sort()).toEqual(
        rows.filter((row) => row.channel === "email").map((row) => `<${row.id}@tks>`)
      )
      expect(yield* stop(second)).toBe(0)
    }), { timeout: 120_000 })

  it.scoped("a server killed (SIGKILL) mid-delivery: every message arrives at least once, and a repeat carries the same Message-ID", () =>
    Effect.gen(function*() {
      const { orgId, first, smtp, start, arrivals } = yield* midDelivery("Restart Kill Org", "killed")
      first.child.kill("SIGKILL")
      yield* first.exited
      // The relay has these messages whole, but the killed server never heard it took them: they are still PENDING.
      const unanswered = smtp.received.filter((mail) => !mail.acknowledged).map((mail) => mail.notificationId!)
      expect(unanswered.length).toBeGreaterThan(0)
      const pending = (yield* notificationsOf(orgId)).filter((row) => row.status === "PENDING").map((row) => row.id)
      for (const id of unanswered) expect(pending).toContain(id)
      // Cut off: every message that reached a fake while its row was still PENDING when the server died. That is
      // the unanswered ones, and also any the relay answered in the moment before the server could record SENT.
      const cutOff = new Set(arrivals().filter((id) => pending.includes(id)))

      // The next server takes the jobs over once their leases lapse.
      const second = yield* start("after-kill")
      const rows = yield* allSentBy(second, orgId)
      const counts = countsOf(arrivals())
      // At least once: every message arrived; nothing arrived that is not one of them.
      expect([...counts.keys()].sort()).toEqual(rows.map((row) => row.id))
      // The messages cut off by the kill arrived twice, both times under the same Message-ID, so the receiver can tell.
      for (const id of cutOff) {
        expect(counts.get(id), id).toBe(2)
        const emails = smtp.received.filter((mail) => mail.notificationId === id).map((mail) => mail.messageId)
        if (emails.length > 0) expect(emails).toEqual([`<${id}@tks>`, `<${id}@tks>`])
      }
      // Nothing recorded as SENT before the kill was sent again.
      for (const [id, count] of counts) if (!cutOff.has(id)) expect(count, id).toBe(1)
      expect(yield* stop(second)).toBe(0)
    }), { timeout: 120_000 })

  it.scoped("without SMTP or Twilio settings the server writes each message into DATA_DIR/mailbox (an email with its text and HTML parts, no link without APP_URL), and says so at start", () =>
    Effect.gen(function*() {
      const orgId = yield* tellFive("Mailbox Org")
      const url = yield* SharedDatabaseUrl
      const server = yield* startServerProcess({ DATABASE_URL: url, SEED_DEMO: "false", DB_POOL_MAX: "4", LOG_LEVEL: "Info", WORKER_POLL_MS: "100" })
      const rows = yield* allSentBy(server, orgId)
      const mailbox = join(server.dataDir, "mailbox")
      for (const row of rows) {
        const file = row.channel === "email" ? join(mailbox, "email", `${row.id}.eml`) : join(mailbox, "sms", `${row.id}.txt`)
        expect(existsSync(file), file).toBe(true)
        const content = readFileSync(file, "utf8")
        expect(content).toContain(row.channel === "email" ? `Message-ID: <${row.id}@tks>` : `Idempotency-Key: ${row.id}`)
        // No APP_URL: no link at all, and never one into the API.
        expect(content).not.toMatch(/https?:\/\/|\/v1\//)
        if (row.channel === "email") expect(content).toMatch(/Content-Type: text\/plain[^]*Content-Type: text\/html/)
      }
      expect(server.stdout()).toContain(`email: local mailbox ${join(server.dataDir, "mailbox", "email")}`)
      expect(server.stdout()).toContain(`text messages: local mailbox ${join(server.dataDir, "mailbox", "sms")}`)
      expect(yield* stop(server)).toBe(0)
    }), { timeout: 120_000 })
})
