import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { NotificationOutbox } from "../src/notifications/outbox.js"
import { NotificationsRepo } from "../src/notifications/repo.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { attemptsOf, importCrew, lessonAssigned, notificationOf, notificationsOf } from "./support/notifications.js"

const TestLayer = Layer.mergeAll(NotificationOutbox.Default, NotificationsRepo.Default, FixtureImporter.Default).pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
)

/** Tells Ben (email only) about the notice and returns the reference of the one row. */
const tellBen = (name: string) =>
  Effect.gen(function*() {
    const crew = yield* importCrew(name)
    yield* Effect.orDie((yield* NotificationOutbox).tell({ orgId: crew.orgId, userIds: [crew.people.ben], notice: lessonAssigned }))
    const [row] = yield* notificationsOf(crew.orgId)
    return { orgId: crew.orgId, id: row!.id }
  })

layer(TestLayer, { excludeTestServices: true })("recording a delivery attempt (NotificationsRepo.settle)", (it) => {
  it.effect("the record of a send run again (its first commit's answer was lost) keeps one sent attempt and the first receipt", () =>
    Effect.gen(function*() {
      const repo = yield* NotificationsRepo
      const ref = yield* tellBen("Settle Twice Crew")
      const sent = { outcome: "sent", status: "SENT", provider: "fake-mail" } as const
      yield* Effect.orDie(repo.settle(ref, { ...sent, providerMessageId: "receipt-1" }))
      yield* Effect.orDie(repo.settle(ref, { ...sent, providerMessageId: "receipt-2" }))
      expect(yield* attemptsOf(ref.id)).toEqual([{ attempt: 1, outcome: "sent", provider: "fake-mail", error: null }])
      expect(yield* notificationOf(ref.orgId, ref.id)).toMatchObject({ status: "SENT", provider_message_id: "receipt-1" })
    }))

  it.effect("retryable attempts are each recorded and numbered; the one that ends the notification follows them", () =>
    Effect.gen(function*() {
      const repo = yield* NotificationsRepo
      const ref = yield* tellBen("Settle Retry Crew")
      yield* Effect.orDie(repo.settle(ref, { outcome: "retryable", provider: "fake-mail", error: "421 try later" }))
      yield* Effect.orDie(repo.settle(ref, { outcome: "retryable", provider: "fake-mail", error: "421 try later" }))
      yield* Effect.orDie(repo.settle(ref, { outcome: "permanent", status: "FAILED", provider: "fake-mail", error: "550 no such user" }))
      expect((yield* attemptsOf(ref.id)).map((attempt) => [attempt.attempt, attempt.outcome])).toEqual([[1, "retryable"], [2, "retryable"], [3, "permanent"]])
      expect(yield* notificationOf(ref.orgId, ref.id)).toMatchObject({ status: "FAILED", error: "550 no such user" })
    }))
})
