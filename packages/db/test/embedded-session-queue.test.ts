import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Fiber } from "effect"
import { testDatabaseLayer } from "../src/test-database.js"

// The embedded database is one session shared by every connection
// (src/pglite-queue.ts); on PostgreSQL these hold trivially.
layer(testDatabaseLayer({ migrations: {} }), { excludeTestServices: true })("connections sharing the embedded session", (it) => {
  it.effect("queries that queued behind a transaction each get their own answer once it ends", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE queued_notes (id integer PRIMARY KEY)`
      for (let round = 0; round < 4; round++) {
        const ask = (who: string) =>
          sql<{ who: string; round: number }>`SELECT ${who}::text AS who, ${round}::int AS round`
        const waiting = yield* Effect.fork(
          Effect.all([ask("b"), ask("c"), ask("d")], { concurrency: "unbounded" }).pipe(Effect.delay(Duration.millis(20)))
        )
        yield* sql.withTransaction(
          Effect.zipRight(sql`INSERT INTO queued_notes VALUES (${round})`, Effect.sleep(Duration.millis(80)))
        )
        const answers = yield* Fiber.join(waiting)
        expect(answers).toEqual(["b", "c", "d"].map((who) => [{ who, round }]))
      }
    }))
})
