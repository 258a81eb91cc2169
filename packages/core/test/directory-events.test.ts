import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { Administration } from "../src/administration/service.js"
import { DirectoryConnections } from "../src/directory/connections.js"
import { DirectoryEvents, type DirectoryEventInput } from "../src/directory/events.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { actorIn, allowed } from "./support/access.js"

/**
 * DirectoryEvents.record, as the SCIM endpoints use it: each event is listed
 * by GET /v1/directory-sync/events and moves the connection's counters and
 * lastSyncAt exactly as GET /v1/directory-sync then shows them, in the
 * caller's transaction.
 */
const TestLayer = Layer.mergeAll(DirectoryConnections.Default, DirectoryEvents.Default, Administration.Default, FixtureImporter.Default).pipe(
  Layer.provideMerge(TestDatabaseLive)
)

const connectedOrg = (name: string) =>
  Effect.gen(function*() {
    const result = yield* (yield* FixtureImporter).importOrganization({ organization: { name, plan: "enterprise" } })
    const orgId = OrganizationId.make(result.organizationId)
    yield* (yield* DirectoryConnections).connect(Caller.system("test"), orgId, {})
    return orgId
  }).pipe(Effect.orDie)

const view = (orgId: string) =>
  Effect.flatMap(Administration, (administration) =>
    administration.directorySync(allowed(actorIn(orgId, "admin"), policies.administration.directorySync))).pipe(
      Effect.map((sync) => sync.connection!)
    )

const counts = (orgId: string) =>
  Effect.map(view(orgId), (connection) => [
    connection.countProvisioned,
    connection.countUpdated,
    connection.countDeactivated,
    connection.countSkipped
  ])

const record = (input: DirectoryEventInput) => Effect.flatMap(DirectoryEvents, (events) => events.record(input))

layer(TestLayer)("DirectoryEvents.record", (it) => {
  it.effect("each applied write moves its counter by one, any skipped write countSkipped, refusals, failures, LIST and AUTH nothing, as the read shows", () =>
    Effect.gen(function*() {
      const orgId = yield* connectedOrg("Counted")
      const steps: ReadonlyArray<[Omit<DirectoryEventInput, "orgId">, ReadonlyArray<number>]> = [
        [{ operation: "CREATE", outcome: "APPLIED", changed: true }, [1, 0, 0, 0]],
        [{ operation: "UPDATE", outcome: "APPLIED", changed: true }, [1, 1, 0, 0]],
        [{ operation: "REACTIVATE", outcome: "APPLIED", changed: true }, [1, 2, 0, 0]],
        [{ operation: "DEACTIVATE", outcome: "APPLIED", changed: true }, [1, 2, 1, 0]],
        [{ operation: "DELETE", outcome: "APPLIED", changed: true }, [1, 2, 2, 0]],
        [{ operation: "UPDATE", outcome: "SKIPPED", reason: "NO_CHANGE" }, [1, 2, 2, 1]],
        [{ operation: "CREATE", outcome: "SKIPPED", reason: "ALREADY_EXISTS" }, [1, 2, 2, 2]],
        [{ operation: "CREATE", outcome: "REJECTED", reason: "DOMAIN_MISMATCH" }, [1, 2, 2, 2]],
        [{ operation: "UPDATE", outcome: "FAILED", reason: "INTERNAL" }, [1, 2, 2, 2]],
        [{ operation: "LIST", outcome: "APPLIED", changed: true }, [1, 2, 2, 2]],
        [{ operation: "LIST", outcome: "SKIPPED" }, [1, 2, 2, 2]],
        [{ operation: "AUTH", outcome: "REJECTED", reason: "TOKEN_REVOKED" }, [1, 2, 2, 2]]
      ]
      for (const [input, expected] of steps) {
        yield* record({ orgId, ...input })
        expect(yield* counts(orgId), `${input.operation} ${input.outcome}`).toEqual(expected)
      }
      const listed = yield* (yield* Administration).directoryEvents(
        allowed(actorIn(orgId, "admin"), policies.administration.directoryEvents),
        { limit: 100 }
      )
      expect(listed.data.map((event) => `${event.operation} ${event.outcome}`).reverse()).toEqual(
        steps.map(([input]) => `${input.operation} ${input.outcome}`)
      )
    }))

  it.effect("lastSyncAt is the time of the last applied write that changed something, the instant its event was recorded; nothing else moves it", () =>
    Effect.gen(function*() {
      const orgId = yield* connectedOrg("Synced")
      expect((yield* view(orgId)).lastSyncAt).toBeNull()
      yield* record({ orgId, operation: "UPDATE", outcome: "APPLIED", changed: false })
      yield* record({ orgId, operation: "LIST", outcome: "APPLIED", changed: true })
      yield* record({ orgId, operation: "CREATE", outcome: "SKIPPED", reason: "ALREADY_EXISTS", changed: true })
      expect((yield* view(orgId)).lastSyncAt).toBeNull()

      yield* record({ orgId, operation: "CREATE", outcome: "APPLIED", userName: "ann@synced.test", externalId: "ext-1", message: "Created ann", changed: true })
      const synced = (yield* view(orgId)).lastSyncAt
      const newest = (yield* (yield* Administration).directoryEvents(
        allowed(actorIn(orgId, "admin"), policies.administration.directoryEvents),
        { limit: 1 }
      )).data[0]!
      expect(newest).toEqual({ operation: "CREATE", outcome: "APPLIED", reason: null, userName: "ann@synced.test", createdAt: synced })

      yield* record({ orgId, operation: "DEACTIVATE", outcome: "REJECTED", reason: "NOT_MANAGED" })
      yield* record({ orgId, operation: "AUTH", outcome: "REJECTED", reason: "CONNECTION_PAUSED" })
      expect((yield* view(orgId)).lastSyncAt).toBe(synced)

      const sql = yield* SqlClient.SqlClient
      const [stored] = yield* sql<{ external_id: string; message: string }>`
        SELECT external_id, message FROM directory_events WHERE org_id = ${orgId} AND operation = 'CREATE' AND outcome = 'APPLIED'`
      expect(stored).toEqual({ external_id: "ext-1", message: "Created ann" })
    }))

  it.effect("it joins the caller's transaction: when the caller's write rolls back, the event and its counters do too", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const orgId = yield* connectedOrg("Rolled back")
      const before = yield* view(orgId)
      const exit = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
        yield* record({ orgId, operation: "CREATE", outcome: "APPLIED", userName: "gone@rolled.test", changed: true })
        expect(yield* counts(orgId)).toEqual([1, 0, 0, 0])
        return yield* Effect.fail("the SCIM write failed after recording")
      })))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* view(orgId)).toEqual(before)
      const [left] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM directory_events WHERE org_id = ${orgId}`
      expect(left!.n).toBe(0)
    }))

  it.effect("an event of another organization moves only that organization's connection", () =>
    Effect.gen(function*() {
      const mine = yield* connectedOrg("Mine counted")
      const theirs = yield* connectedOrg("Theirs counted")
      yield* record({ orgId: theirs, operation: "CREATE", outcome: "APPLIED", changed: true })
      expect(yield* counts(mine)).toEqual([0, 0, 0, 0])
      expect((yield* view(mine)).lastSyncAt).toBeNull()
      expect(yield* counts(theirs)).toEqual([1, 0, 0, 0])
    }))
})
