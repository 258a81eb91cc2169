import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either } from "effect"
import { DatabaseLive } from "../src/client.js"
import { LOCK_FILE } from "../src/data-dir-lock.js"
import { DatabaseHealth } from "../src/health.js"
import { buildWithEnv } from "./support/with-env.js"

const temporaryDirectory = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "tks-db-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

// DatabaseLive as the server builds it with no DATABASE_URL, in its own scope.
const withEmbedded = <A, E>(dataDir: string, use: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const context = yield* buildWithEnv(DatabaseLive, { DATA_DIR: dataDir })
    return yield* use(Context.get(context, SqlClient.SqlClient))
  }).pipe(Effect.scoped)

describe("embedded database (no DATABASE_URL)", () => {
  it.scopedLive("serves PGlite through PgClient, creates DATA_DIR's parents, and keeps data across restarts", () =>
    Effect.gen(function*() {
      // Nested: PGlite itself would not create the parents.
      const dataDir = join(yield* temporaryDirectory, "nested", "data")

      const version = yield* withEmbedded(dataDir, (sql) =>
        Effect.gen(function*() {
          yield* sql`CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)`
          yield* sql`INSERT INTO notes ${sql.insert({ id: 1, body: "kept" })}`
          const health = yield* DatabaseHealth.pipe(
            Effect.provide(DatabaseHealth.Default),
            Effect.provideService(SqlClient.SqlClient, sql)
          )
          expect(yield* health.ping).toBe(true)
          const [row] = yield* sql<{ readonly version: string }>`SELECT version() AS version`
          return row?.version
        }))
      expect(version).toContain("PGlite")

      const rows = yield* withEmbedded(dataDir, (sql) => sql<{ readonly body: string }>`SELECT body FROM notes WHERE id = 1`)
      expect(rows).toEqual([{ body: "kept" }])
    }))

  it.scopedLive("refuses a DATA_DIR another live process holds, and takes over a stale lock", () =>
    Effect.gen(function*() {
      const dataDir = yield* temporaryDirectory
      // The parent of this process stands in for a server holding the directory.
      yield* Effect.promise(() => writeFile(join(dataDir, LOCK_FILE), String(process.ppid)))
      const refused = yield* Effect.either(withEmbedded(dataDir, (sql) => sql`SELECT 1`))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("EmbeddedDatabaseError")
      expect(Either.isLeft(refused) && refused.left.message).toContain(`in use by process ${process.ppid}`)

      // A pid that cannot be running: the lock is stale.
      yield* Effect.promise(() => writeFile(join(dataDir, LOCK_FILE), "2147483647"))
      expect(yield* withEmbedded(dataDir, (sql) => sql`SELECT 1 AS one`)).toEqual([{ one: 1 }])
    }))
})
