import { mkdir } from "node:fs/promises"
import { resolve } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Redacted, type Scope } from "effect"
import { lockDataDir } from "./data-dir-lock.js"
import { EmbeddedDatabaseError } from "./embedded-error.js"

export const IN_MEMORY = "memory://"

export interface EmbeddedDatabase {
  /** A postgres:// URL to the socket server, for the same PgClient as a real server. */
  readonly url: Redacted.Redacted
  readonly host: string
  readonly port: number
  /** Absolute data directory, or `memory://`. */
  readonly dataDir: string
}

export interface EmbeddedOptions {
  /** A directory (created if missing), or `memory://`. */
  readonly dataDir: string
  /** Socket connections to accept; pglite-socket's default of 1 starves a pool (pitfall 7). */
  readonly maxConnections: number
}

const attempt = <A>(message: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new EmbeddedDatabaseError({ message, cause }) })

/** Opens PGlite in `dataDir`, creating its parents and claiming it for this process; closed with the scope. */
export const openPGlite = (
  dataDir: string,
  image?: Blob
): Effect.Effect<PGlite, EmbeddedDatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    if (dataDir !== IN_MEMORY) {
      // PGlite creates the directory itself but not its parents.
      yield* attempt(`Cannot create ${dataDir}`, () => mkdir(dataDir, { recursive: true }))
      yield* lockDataDir(dataDir)
    }
    return yield* Effect.acquireRelease(
      attempt(`Cannot open PGlite in ${dataDir}`, () => PGlite.create(dataDir, image ? { loadDataDir: image } : {})),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
  })

/**
 * Serves an open PGlite over the PostgreSQL wire protocol on a free loopback
 * port, so the embedded database is reached through exactly the client and
 * code paths a real PostgreSQL server is. Acquired after PGlite, so closing
 * the scope stops the socket server first (the other order leaves handlers
 * talking to a closed database).
 */
export const servePGlite = (
  db: PGlite,
  options: { readonly dataDir: string; readonly maxConnections: number }
): Effect.Effect<EmbeddedDatabase, EmbeddedDatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const host = "127.0.0.1"
    // Port 0: the OS picks a free port; pglite-socket reads the real one back after listen.
    const server = new PGLiteSocketServer({ db, host, port: 0, maxConnections: options.maxConnections })
    yield* Effect.acquireRelease(
      attempt("Cannot start the PGlite socket server", () => server.start()),
      () => Effect.promise(() => server.stop()).pipe(Effect.ignore)
    )
    const port = portOf(server.getServerConn())
    yield* Effect.logInfo("Embedded PGlite database started").pipe(
      Effect.annotateLogs({ dataDir: options.dataDir, address: `${host}:${port}` })
    )
    return {
      url: Redacted.make(`postgres://postgres@${host}:${port}/postgres`),
      host,
      port,
      dataDir: options.dataDir
    }
  })

/** PGlite in `dataDir` (a directory, or `memory://`), served on loopback for the scope. */
export const startEmbedded = (
  options: EmbeddedOptions
): Effect.Effect<EmbeddedDatabase, EmbeddedDatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const dataDir = options.dataDir === IN_MEMORY ? IN_MEMORY : resolve(options.dataDir)
    const db = yield* openPGlite(dataDir)
    return yield* servePGlite(db, { dataDir, maxConnections: options.maxConnections })
  })

// getServerConn() is "host:port" for a TCP server.
const portOf = (conn: string): number => Number(conn.slice(conn.lastIndexOf(":") + 1))
