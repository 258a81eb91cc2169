import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { Authenticator } from "../src/auth/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Authenticator.Default).pipe(Layer.provideMerge(TestDatabaseLive))

layer(TestLayer)("a token's last use", (it) => {
  it.effect("is recorded by the request that authenticates with it, then at most once a minute", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const auth = yield* Authenticator
      const imported = yield* (yield* FixtureImporter).importOrganization({
        organization: { name: "Last use" },
        people: [{ key: "admin", name: "Admin", email: "admin@last-use.test", role: "admin", tokenScopes: [] }]
      })
      const actor = yield* auth.authenticate(imported.tokens.admin!)
      const lastUse = sql<{ last_used_at: Date | null }>`SELECT last_used_at FROM access_tokens WHERE id = ${actor.tokenId}`.pipe(
        Effect.map((rows) => rows[0]?.last_used_at ?? null)
      )
      const first = yield* lastUse
      expect(first).not.toBeNull()

      // Within the minute: no write.
      yield* sql`UPDATE access_tokens SET last_used_at = now() - interval '30 seconds' WHERE id = ${actor.tokenId}`
      const recent = yield* lastUse
      yield* auth.authenticate(imported.tokens.admin!)
      expect(yield* lastUse).toEqual(recent)

      // Over a minute ago: recorded again.
      yield* sql`UPDATE access_tokens SET last_used_at = now() - interval '2 minutes' WHERE id = ${actor.tokenId}`
      const stale = yield* lastUse
      yield* auth.authenticate(imported.tokens.admin!)
      expect((yield* lastUse)!.getTime()).toBeGreaterThan(stale!.getTime() + 60_000)
    }))
})
