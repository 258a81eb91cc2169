import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Redacted, type Scope } from "effect"
import { lockDataDir } from "./data-dir-lock.js"
import { EmbeddedDatabaseError } from "./embedded-error.js"
import { createOwnerOnlyDir, makeOwnerOnly, OwnerOnlyNodeFS } from "./owner-only.js"
import { useSessionQueue } from "./pglite-queue.js"

export const IN_MEMORY = "memory://"

/** The name `pg` gives the socket in a host directory (port 5432). */
export const SOCKET_NAME = ".s.PGSQL.5432"

interface EmbeddedDatabase {
  /** A postgres:// URL to the socket server, for the same PgClient as a real server. */
  readonly url: Redacted.Redacted
  /** The owner-only directory holding the Unix socket (removed with the scope). */
  readonly socketDir: string
  /** Absolute data directory, or `memory://`. */
  readonly dataDir: string
}

interface EmbeddedOptions {
  /** A directory (created if missing), or `memory://`. */
  readonly dataDir: string
  /** Socket connections to accept; pglite-socket's default of 1 starves a pool (pitfall 7). */
  readonly maxConnections: number
}

const attempt = <A>(message: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new EmbeddedDatabaseError({ message, cause }) })

/**
 * Opens PGlite in `dataDir`, creating it and its parents, claiming it for
 * this process, and keeping it owner-only (0700, files 0600); closed with the
 * scope.
 */
export const openPGlite = (
  dataDir: string,
  image?: Blob
): Effect.Effect<PGlite, EmbeddedDatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    // pg_trgm backs title filters and search (migration 0003); it must be loaded when PGlite opens.
    const options = image ? { loadDataDir: image, extensions: { pg_trgm } } : { extensions: { pg_trgm } }
    if (dataDir !== IN_MEMORY) {
      yield* attempt(`Cannot create ${dataDir}`, () => createOwnerOnlyDir(dataDir))
      yield* lockDataDir(dataDir)
      yield* attempt(`Cannot make ${dataDir} owner-only`, () => makeOwnerOnly(dataDir))
    }
    const open = dataDir === IN_MEMORY
      ? () => PGlite.create(dataDir, options)
      : () => PGlite.create({ ...options, fs: new OwnerOnlyNodeFS(dataDir) })
    return yield* Effect.acquireRelease(
      attempt(`Cannot open PGlite in ${dataDir}`, open),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
  })

/** A fresh directory only this user can enter (mkdtemp makes it 0700), removed with the scope. */
const privateDirectory = Effect.acquireRelease(
  attempt("Cannot create a directory for the database socket", () => mkdtemp(join(tmpdir(), "tks-db-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true })).pipe(Effect.ignore)
)

/**
 * Serves an open PGlite over the PostgreSQL wire protocol, so the embedded
 * database is reached through exactly the client and code paths a real
 * PostgreSQL server is.
 *
 * Only to this service: pglite-socket checks no password, so the server
 * listens on a Unix socket in a fresh owner-only directory, which no other
 * user can enter (a loopback port let every local process read every table,
 * write tokens, or take every connection slot). The directory is under the
 * system temp directory rather than DATA_DIR: a socket path is limited to
 * about 100 bytes, and PGlite's NODEFS cannot stat a socket (one inside the
 * data directory makes dumpDataDir fail with EINVAL). Every connection slot
 * is the service's own.
 *
 * Acquired after PGlite, so closing the scope stops the socket server first
 * (the other order leaves handlers talking to a closed database).
 */
export const servePGlite = (
  db: PGlite,
  options: { readonly dataDir: string; readonly maxConnections: number }
): Effect.Effect<EmbeddedDatabase, EmbeddedDatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const socketDir = yield* privateDirectory
    const server = new PGLiteSocketServer({ db, path: join(socketDir, SOCKET_NAME), maxConnections: options.maxConnections })
    // Without it, queries queued behind a transaction get each other's answers (pglite-queue.ts).
    useSessionQueue(server, db)
    yield* Effect.acquireRelease(
      attempt("Cannot start the PGlite socket server", () => server.start()),
      () => Effect.promise(() => server.stop()).pipe(Effect.ignore)
    )
    // No address in the log: nothing another process could use.
    yield* Effect.logInfo("Embedded PGlite database started").pipe(Effect.annotateLogs({ dataDir: options.dataDir }))
    const url = new URL("postgres://postgres@localhost/postgres")
    url.searchParams.set("host", socketDir)
    return { url: Redacted.make(url.toString()), socketDir, dataDir: options.dataDir }
  })

/** PGlite in `dataDir` (a directory, or `memory://`), served to this process only, for the scope. */
export const startEmbedded = (
  options: EmbeddedOptions
): Effect.Effect<EmbeddedDatabase, EmbeddedDatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const dataDir = options.dataDir === IN_MEMORY ? IN_MEMORY : resolve(options.dataDir)
    const db = yield* openPGlite(dataDir)
    return yield* servePGlite(db, { dataDir, maxConnections: options.maxConnections })
  })
