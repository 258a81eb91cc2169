import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Deferred, Duration, Effect, Fiber, Layer, Logger, LogLevel, Option } from "effect"
import { permanent, retryable } from "@tks/adapters/delivery"
import { TestDatabaseLive } from "@tks/db/test-database"
import { JobFailure } from "../src/jobs/handler.js"
import { type ClaimedJob, JobsRepo } from "../src/jobs/repo.js"
import { JobWake } from "../src/jobs/wake.js"
import { runJobWorkers } from "../src/jobs/worker.js"
import { notificationDeliveryJob } from "../src/notifications/delivery.js"
import { NotificationOutbox } from "../src/notifications/outbox.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { eventually } from "./support/jobs.js"
import { scriptedMessaging } from "./support/messaging.js"
import { attemptsOf, deliveryJobsOf, importCrew, lessonAssigned, notificationOf, notificationsOf } from "./support/notifications.js"

const messaging = scriptedMessaging()

const TestLayer = Layer.mergeAll(NotificationOutbox.Default, FixtureImporter.Default, JobsRepo.Default, JobWake.Default, messaging.layer).pipe(
  Layer.provideMerge(TestDatabaseLive),
  // The sends, retries and refusals these tests cause on purpose are logged.
  Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
)

const OWNER = "delivery-test"

/** Claims the next due delivery job, as a worker would. */
const claimDelivery = Effect.gen(function*() {
  const repo = yield* JobsRepo
  const job = yield* repo.claim({ owner: OWNER, kinds: ["notification.deliver"], leaseMs: 60_000 })
  return Option.isSome(job) ? job.value : yield* Effect.dieMessage("no delivery job was due")
})

/** The handler as a process started with `env` builds it (no APP_URL unless given). */
const handlerWith = (env: Record<string, string> = {}) =>
  notificationDeliveryJob.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

/** Runs the handler on `job` and completes it, as the worker does after a success. */
const runJob = (job: ClaimedJob, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const handler = yield* handlerWith(env)
    yield* handler.run(job)
    yield* (yield* JobsRepo).complete(job, OWNER)
  })

/** Tells Ben (email only) about the notice and returns the one row. */
const tellBen = (name: string) =>
  Effect.gen(function*() {
    const crew = yield* importCrew(name)
    yield* (yield* NotificationOutbox).tell({ orgId: crew.orgId, userIds: [crew.people.ben], notice: lessonAssigned })
    const [row] = yield* notificationsOf(crew.orgId)
    return { crew, id: row!.id }
  })

// Each test starts with nothing due (a test claims the oldest due job) and the default answer.
const reset = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE jobs SET status = 'COMPLETED', completed_at = now() WHERE status IN ('PENDING', 'RUNNING')`.pipe(Effect.orDie)
  messaging.handed.length = 0
  messaging.answerWith(() => Effect.succeed({ providerMessageId: "fake-receipt" }))
})

// Real time: the worker test waits for its retries on the database clock.
layer(TestLayer, { excludeTestServices: true })("delivering the outbox (the notification.deliver job)", (it) => {
  it.effect("an email is sent once with its words and marked SENT; running the job again sends nothing more", () =>
    Effect.gen(function*() {
      yield* reset
      const { crew, id } = yield* tellBen("Deliver Once Crew")
      const job = yield* claimDelivery
      expect(job.subjectId).toBe(id)
      yield* runJob(job)
      expect(messaging.handed).toEqual([{
        channel: "email",
        id,
        to: "ben@crew.test",
        name: "Ben Okafor",
        subject: "New training: Forklift safety",
        body: expect.stringContaining("Please complete it by 1 December 2026."),
        html: expect.stringContaining("Please complete it by 1 December 2026.")
      }])
      expect(yield* notificationOf(crew.orgId, id)).toMatchObject({ status: "SENT", sent: true, provider_message_id: "fake-receipt" })
      expect(yield* attemptsOf(id)).toEqual([{ attempt: 1, outcome: "sent", provider: "fake-mail", error: null }])
      // The same job run again (a redelivery after a shutdown or a takeover) finds it SENT.
      yield* (yield* handlerWith()).run(job)
      expect(messaging.handed).toHaveLength(1)
      expect(yield* attemptsOf(id)).toHaveLength(1)
    }))

  it.effect("a text goes to the phone captured at the act, keyed by the notification's id, short enough for one SMS", () =>
    Effect.gen(function*() {
      yield* reset
      const crew = yield* importCrew("Deliver Text Crew")
      yield* (yield* NotificationOutbox).tell({ orgId: crew.orgId, userIds: [crew.people.ava], notice: lessonAssigned })
      yield* runJob(yield* claimDelivery)
      yield* runJob(yield* claimDelivery)
      const text = messaging.handed.find((message) => message.channel === "sms")!
      const row = (yield* notificationsOf(crew.orgId)).find((candidate) => candidate.channel === "sms")!
      expect(text).toMatchObject({ id: row.id, to: "+15550100001" })
      expect(text.body).toBe("New training: \"Forklift safety\", due 1 Dec 2026.")
      expect(text.body.length).toBeLessThanOrEqual(160)
      expect(row.status).toBe("SENT")
    }))

  it.effect("with APP_URL set, an assigned lesson's email (text and HTML) and text message link to the app's lesson path", () =>
    Effect.gen(function*() {
      yield* reset
      const crew = yield* importCrew("Deliver App Link Crew")
      yield* (yield* NotificationOutbox).tell({ orgId: crew.orgId, userIds: [crew.people.ava], notice: lessonAssigned })
      const env = { APP_URL: "https://learn.crew.test", PUBLIC_URL: "https://tks.crew.test" }
      yield* runJob(yield* claimDelivery, env)
      yield* runJob(yield* claimDelivery, env)
      const email = messaging.handed.find((message) => message.channel === "email")!
      const text = messaging.handed.find((message) => message.channel === "sms")!
      expect(email.body).toContain("Open the lesson: https://learn.crew.test/lessons/les_forklift\n")
      expect(email.html).toContain("<a href=\"https://learn.crew.test/lessons/les_forklift\">Open the lesson</a>")
      expect(text.body).toBe("New training: \"Forklift safety\", due 1 Dec 2026. https://learn.crew.test/lessons/les_forklift")
      for (const message of messaging.handed) expect(`${message.body}${message.html ?? ""}`).not.toContain("/v1/")
    }))

  it.effect("without APP_URL no message contains a link, and none an address into the API (/v1/), even with PUBLIC_URL set", () =>
    Effect.gen(function*() {
      yield* reset
      const crew = yield* importCrew("Deliver No Link Crew")
      yield* (yield* NotificationOutbox).tell({ orgId: crew.orgId, userIds: [crew.people.ava], notice: lessonAssigned })
      const env = { PUBLIC_URL: "https://tks.crew.test" }
      yield* runJob(yield* claimDelivery, env)
      yield* runJob(yield* claimDelivery, env)
      expect(messaging.handed.map((message) => message.channel).sort()).toEqual(["email", "sms"])
      for (const message of messaging.handed) {
        expect(`${message.body}${message.html ?? ""}`, message.channel).not.toMatch(/https?:|\/v1\/|<a /)
      }
      expect(messaging.handed.find((message) => message.channel === "sms")!.body).toBe("New training: \"Forklift safety\", due 1 Dec 2026.")
    }))

  it.effect("a person deactivated after the act is SKIPPED: nothing is sent", () =>
    Effect.gen(function*() {
      yield* reset
      const sql = yield* SqlClient.SqlClient
      const { crew, id } = yield* tellBen("Deliver Skip Crew")
      yield* sql`UPDATE users SET status = 'DEACTIVATED', deactivated_at = now() WHERE id = ${crew.people.ben}`
      yield* runJob(yield* claimDelivery)
      expect(messaging.handed).toEqual([])
      expect(yield* notificationOf(crew.orgId, id)).toMatchObject({ status: "SKIPPED", sent: false })
      expect(yield* attemptsOf(id)).toEqual([{ attempt: 1, outcome: "skipped", provider: null, error: "the person was deactivated" }])
    }))

  it.effect("a retryable failure is recorded and fails the job (so it is retried); a permanent one marks FAILED at once", () =>
    Effect.gen(function*() {
      yield* reset
      const first = yield* tellBen("Deliver Retryable Crew")
      messaging.answerWith(() => Effect.fail(retryable("SMTP 451 4.3.0 Try again later")))
      const handler = yield* handlerWith()
      const failed = yield* Effect.flip(handler.run(yield* claimDelivery))
      expect(failed).toEqual(new JobFailure({ reason: "SMTP 451 4.3.0 Try again later" }))
      expect(yield* notificationOf(first.crew.orgId, first.id)).toMatchObject({ status: "PENDING" })
      expect(yield* attemptsOf(first.id)).toEqual([{ attempt: 1, outcome: "retryable", provider: "fake-mail", error: "SMTP 451 4.3.0 Try again later" }])
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE jobs SET status = 'COMPLETED' WHERE subject_id = ${first.id}`)

      const second = yield* tellBen("Deliver Permanent Crew")
      messaging.answerWith(() => Effect.fail(permanent("SMTP 550 5.1.1 No such user")))
      yield* runJob(yield* claimDelivery)
      expect(yield* notificationOf(second.crew.orgId, second.id)).toMatchObject({ status: "FAILED", error: "SMTP 550 5.1.1 No such user" })
      expect(yield* attemptsOf(second.id)).toEqual([{ attempt: 1, outcome: "permanent", provider: "fake-mail", error: "SMTP 550 5.1.1 No such user" }])
      expect((yield* deliveryJobsOf(second.crew.orgId))[0]).toMatchObject({ status: "COMPLETED" })
    }))

  it.scoped("through the workers: a delivery retried after a transient failure goes again with the same message id and is SENT once", () =>
    Effect.gen(function*() {
      yield* reset
      let calls = 0
      messaging.answerWith(() => ++calls === 1 ? Effect.fail(retryable("Twilio HTTP 503")) : Effect.succeed({ providerMessageId: "fake-after-retry" }))
      const { crew, id } = yield* tellBen("Deliver Retry Crew")
      const handler = yield* handlerWith()
      yield* runJobWorkers({ owner: "retry-workers", concurrency: 1, pollMs: 20, leaseMs: 5_000, retryBaseMs: 50 }, [handler])
      yield* eventually(Effect.map(notificationOf(crew.orgId, id), (row) => row.status === "SENT"))
      expect(messaging.handed.map((message) => message.id)).toEqual([id, id])
      expect((yield* attemptsOf(id)).map((attempt) => attempt.outcome)).toEqual(["retryable", "sent"])
      expect(yield* notificationOf(crew.orgId, id)).toMatchObject({ provider_message_id: "fake-after-retry" })
      // The worker marks the job COMPLETED in a statement of its own, just after the handler recorded SENT.
      yield* eventually(Effect.map(deliveryJobsOf(crew.orgId), (jobs) => jobs[0]?.status === "COMPLETED"))
      expect((yield* deliveryJobsOf(crew.orgId))[0]).toMatchObject({ status: "COMPLETED", attempts: 2 })
    }), { timeout: 30_000 })

  it.scoped("through the workers: out of attempts, the notification is FAILED with the last reason", () =>
    Effect.gen(function*() {
      yield* reset
      messaging.answerWith(() => Effect.fail(retryable("no connection")))
      const { crew, id } = yield* tellBen("Deliver Give Up Crew")
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE jobs SET max_attempts = 3 WHERE subject_id = ${id}`)
      const handler = yield* handlerWith()
      // "job failed for good" is logged as an error, on purpose here.
      yield* runJobWorkers({ owner: "give-up-workers", concurrency: 1, pollMs: 20, leaseMs: 5_000, retryBaseMs: 20 }, [handler]).pipe(
        Logger.withMinimumLogLevel(LogLevel.None)
      )
      yield* eventually(Effect.map(notificationOf(crew.orgId, id), (row) => row.status !== "PENDING"))
      expect(yield* notificationOf(crew.orgId, id)).toMatchObject({ status: "FAILED", error: "no connection", sent: false })
      expect((yield* attemptsOf(id)).map((attempt) => attempt.outcome)).toEqual(["retryable", "retryable", "retryable"])
      expect((yield* deliveryJobsOf(crew.orgId))[0]).toMatchObject({ status: "FAILED", attempts: 3 })
    }), { timeout: 30_000 })

  it.effect("an interrupt (a shutdown) while the message is being handed over waits until it is recorded as SENT", () =>
    Effect.gen(function*() {
      yield* reset
      const handing = yield* Deferred.make<void>()
      messaging.answerWith(() =>
        Deferred.succeed(handing, undefined).pipe(
          Effect.zipRight(Effect.sleep(Duration.millis(300))),
          Effect.as({ providerMessageId: "fake-slow" })
        )
      )
      const { crew, id } = yield* tellBen("Deliver Interrupt Crew")
      const handler = yield* handlerWith()
      const running = yield* Effect.fork(handler.run(yield* claimDelivery))
      yield* Deferred.await(handing)
      yield* Fiber.interrupt(running)
      // The interrupt returned only once the hand-over was done and recorded.
      expect(yield* notificationOf(crew.orgId, id)).toMatchObject({ status: "SENT", provider_message_id: "fake-slow" })
      expect(messaging.handed).toHaveLength(1)
    }))
})
