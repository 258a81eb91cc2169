import { spawnSync } from "node:child_process"
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either, Redacted } from "effect"
import { DatabaseLive, makePgClient } from "../src/client.js"
import { LOCK_FILE } from "../src/data-dir-lock.js"
import { IN_MEMORY, SOCKET_NAME, startEmbedded } from "../src/embedded.js"
import { DatabaseHealth } from "../src/health.js"
import { TEST_POOL } from "../src/test-database.js"
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

// Every path under `dir` (itself included) that group or others may use, with its mode.
const notOwnerOnly = async (dir: string): Promise<Array<string>> => {
  const found: Array<string> = []
  const visit = async (path: string) => {
    const info = await stat(path)
    if ((info.mode & 0o077) !== 0) found.push(`${path} ${(info.mode & 0o777).toString(8)}`)
    if (info.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name))
  }
  await visit(dir)
  return found
}

// What the version before this one left: every file 0666, every directory 0755.
const loosen = async (path: string): Promise<void> => {
  const info = await stat(path)
  await chmod(path, info.isDirectory() ? 0o755 : 0o666)
  if (info.isDirectory()) for (const name of await readdir(path)) await loosen(join(path, name))
}

// Run as the unprivileged user `nobody`: connects to the socket and prints the error code.
const connectAsNobody = (socketPath: string) =>
  spawnSync(process.execPath, [
    "-e",
    `require("node:net").connect(${JSON.stringify(socketPath)}).on("connect", () => { console.log("CONNECTED"); process.exit(0) }).on("error", (e) => console.log(e.code))`
  ], { uid: 65534, gid: 65534, cwd: "/", encoding: "utf8" }).stdout.trim()

describe("the embedded database is the service's alone", () => {
  it.scopedLive("it is served on a Unix socket in an owner-only directory, removed with the scope; the pool works", () =>
    Effect.gen(function*() {
      const socketDir = yield* Effect.scoped(Effect.gen(function*() {
        const embedded = yield* startEmbedded({ dataDir: IN_MEMORY, maxConnections: 3 })
        const url = new URL(Redacted.value(embedded.url))
        // No host or port another process could use: pg reaches host=<dir>/.s.PGSQL.5432.
        expect(url.searchParams.get("host")).toBe(embedded.socketDir)
        const dir = yield* Effect.promise(() => stat(embedded.socketDir))
        expect(dir.mode & 0o777).toBe(0o700)
        expect(dir.uid).toBe(process.getuid?.())
        const socket = yield* Effect.promise(() => stat(join(embedded.socketDir, SOCKET_NAME)))
        expect(socket.isSocket()).toBe(true)
        if (process.getuid?.() === 0) {
          // Root may enter any directory; another user may not.
          expect(connectAsNobody(join(embedded.socketDir, SOCKET_NAME))).toBe("EACCES")
        }
        const sql = yield* makePgClient(embedded.url, { ...TEST_POOL, poolMax: 2 }).pipe(Effect.provide(Reactivity.layer))
        expect(yield* sql`SELECT 1 AS one`).toEqual([{ one: 1 }])
        return embedded.socketDir
      }))
      const gone = yield* Effect.either(Effect.tryPromise(() => stat(socketDir)))
      expect(Either.isLeft(gone)).toBe(true)
    }))

  it.scopedLive("DATA_DIR is 0700 and its files 0600 after start and after writes, and an older loose directory is tightened", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* temporaryDirectory, "data")
      const writeAndCheckpoint = (table: string) => (sql: SqlClient.SqlClient) =>
        Effect.gen(function*() {
          yield* sql`CREATE TABLE ${sql(table)} (id integer PRIMARY KEY, body text NOT NULL)`
          yield* sql`INSERT INTO ${sql(table)} SELECT g, 'row ' || g FROM generate_series(1, 2000) g`
          yield* sql`CHECKPOINT`
          return yield* Effect.promise(() => notOwnerOnly(dataDir))
        })

      expect(yield* withEmbedded(dataDir, writeAndCheckpoint("first"))).toEqual([])
      expect(yield* Effect.promise(() => notOwnerOnly(dataDir))).toEqual([])

      yield* Effect.promise(() => loosen(dataDir))
      expect((yield* Effect.promise(() => notOwnerOnly(dataDir))).length).toBeGreaterThan(900)
      expect(yield* withEmbedded(dataDir, writeAndCheckpoint("second"))).toEqual([])
      expect(yield* Effect.promise(() => notOwnerOnly(dataDir))).toEqual([])
    }))
})
