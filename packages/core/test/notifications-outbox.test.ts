import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { DELIVERY_ATTEMPTS, NotificationOutbox } from "../src/notifications/outbox.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { deliveryJobsOf, importCrew, lessonAssigned, notificationsOf } from "./support/notifications.js"

const TestLayer = Layer.mergeAll(NotificationOutbox.Default, FixtureImporter.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const tell = (input: Parameters<NotificationOutbox["tell"]>[0]) => Effect.flatMap(NotificationOutbox, (outbox) => outbox.tell(input))

layer(TestLayer)("NotificationOutbox.tell", (it) => {
  it.effect("a person with a phone gets an email and a text, one without (or with a blank one) an email only, a deactivated person nothing; each row and its job get an id in the app's format (ntf_, job_)", () =>
    Effect.gen(function*() {
      const crew = yield* importCrew("Tell Crew")
      const { ava, ben, cleo, dora } = crew.people
      const written = yield* tell({ orgId: crew.orgId, userIds: [ava, ben, cleo, dora], notice: lessonAssigned })
      expect(written).toBe(4)
      const rows = yield* notificationsOf(crew.orgId)
      expect(rows.map((row) => [row.recipient_name, row.channel, row.recipient, row.status])).toEqual([
        ["Ava Thompson", "email", "ava@crew.test", "PENDING"],
        ["Ava Thompson", "sms", "+15550100001", "PENDING"],
        ["Ben Okafor", "email", "ben@crew.test", "PENDING"],
        ["Cleo Park", "email", "cleo@crew.test", "PENDING"]
      ])
      for (const row of rows) {
        expect(row.id).toMatch(/^ntf_[0-9a-hjkmnp-tv-z]{20}$/)
        expect(row).toMatchObject({ kind: "LessonAssigned", notice: lessonAssigned, sent: false, provider_message_id: null })
      }
      // One delivery job per row, pending, with the notification's own number of attempts.
      const jobs = yield* deliveryJobsOf(crew.orgId)
      expect(jobs.map((job) => job.subject_id)).toEqual(rows.map((row) => row.id).sort())
      for (const job of jobs) {
        expect(job).toMatchObject({ status: "PENDING", attempts: 0, max_attempts: DELIVERY_ATTEMPTS })
        expect(job.id).toMatch(/^job_[0-9a-hjkmnp-tv-z]{20}$/)
      }
    }))

  it.effect("people of another organization, unknown ids and repeats are passed over; naming nobody writes nothing", () =>
    Effect.gen(function*() {
      const crew = yield* importCrew("Tell Scope Crew")
      const elsewhere = yield* importCrew("Tell Other Crew")
      const written = yield* tell({
        orgId: crew.orgId,
        userIds: [crew.people.ben, crew.people.ben, elsewhere.people.ava, "usr_nobody"],
        notice: lessonAssigned
      })
      expect(written).toBe(1)
      expect((yield* notificationsOf(crew.orgId)).map((row) => row.recipient)).toEqual(["ben@crew.test"])
      expect(yield* notificationsOf(elsewhere.orgId)).toEqual([])
      expect(yield* tell({ orgId: crew.orgId, userIds: [], notice: lessonAssigned })).toBe(0)
      expect(yield* tell({ orgId: crew.orgId, userIds: [crew.people.dora], notice: lessonAssigned })).toBe(0)
      expect(yield* deliveryJobsOf(crew.orgId)).toHaveLength(1)
    }))

  it.effect("in the caller's transaction: an act rolled back tells nobody (no row, no job)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const crew = yield* importCrew("Tell Rollback Crew")
      const exit = yield* sql.withTransaction(
        Effect.gen(function*() {
          const written = yield* tell({ orgId: crew.orgId, userIds: [crew.people.ava, crew.people.ben], notice: lessonAssigned })
          // Seen inside the transaction...
          expect(written).toBe(3)
          expect(yield* notificationsOf(crew.orgId)).toHaveLength(3)
          return yield* Effect.fail("the act failed after telling" as const)
        })
      ).pipe(Effect.exit)
      expect(exit).toEqual(Exit.fail("the act failed after telling"))
      // ...and gone with it.
      expect(yield* notificationsOf(crew.orgId)).toEqual([])
      expect(yield* deliveryJobsOf(crew.orgId)).toEqual([])
    }))

  it.effect("a row keeps the address, name and notice of the moment of the act, whatever changes after", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const crew = yield* importCrew("Tell Snapshot Crew")
      yield* tell({ orgId: crew.orgId, userIds: [crew.people.ava], notice: lessonAssigned })
      yield* sql`UPDATE users SET email = 'ava.new@crew.test', name = 'Ava Renamed', phone = NULL WHERE id = ${crew.people.ava}`
      const rows = yield* notificationsOf(crew.orgId)
      expect(rows.map((row) => [row.channel, row.recipient, row.recipient_name])).toEqual([
        ["email", "ava@crew.test", "Ava Thompson"],
        ["sms", "+15550100001", "Ava Thompson"]
      ])
    }))
})
