import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { UserId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { Members } from "../src/members/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Members.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

/** GET /v1/members/{id} as acme's `key`. */
const getAs = (key: string, id: UserId) =>
  Effect.gen(function*() {
    const { acme } = yield* setup
    return yield* (yield* Members).get(acme.access(key, policies.members.get), id)
  })

layer(TestLayer)("GET /v1/members/{id}", (it) => {
  it.effect("an organization admin opens anyone with a record, at any status, with the admin fields", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const dora = yield* getAs("adam", acme.userId("dora"))
      expect(dora).toMatchObject({
        name: "Dora Departed",
        status: "DEACTIVATED",
        deactivatedAt: "2026-01-15T08:30:00.000Z",
        phone: "+15550100",
        reportsTo: null
      })
      const rex = yield* getAs("adam", acme.userId("rex"))
      expect(rex.reportsTo).toEqual({ id: acme.userId("dora"), name: "Dora Departed", status: "DEACTIVATED" })
    }))

  it.effect("an admin gets 404 for another organization's id and for unknown ids", () =>
    Effect.gen(function*() {
      const { other } = yield* setup
      for (const id of [other.userId("otto"), UserId.make("usr_unknown"), UserId.make("")]) {
        expect(yield* Effect.flip(getAs("olivia", id))).toMatchObject({ _tag: "NotFound" })
      }
    }))

  it.effect("anyone else opens only themself, without the admin fields; someone else is 404, a team member included", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const self = yield* getAs("victor", acme.userId("victor"))
      expect(self.name).toBe("Victor Viewer")
      for (const key of ["phone", "directoryManaged", "deactivatedAt", "reportsTo"]) expect(key in self).toBe(false)
      expect(yield* Effect.flip(getAs("victor", acme.userId("olivia")))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(getAs("victor", UserId.make("usr_unknown")))).toMatchObject({ _tag: "NotFound" })
      // Tara administers Ops; members.get is admins-else-self, so Rex on Ops is out of her reach.
      expect(yield* Effect.flip(getAs("tara", acme.userId("rex")))).toMatchObject({ _tag: "NotFound" })
    }))
})
