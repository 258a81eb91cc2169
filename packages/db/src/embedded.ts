import { mkdir } from "node:fs/promises"
import { resolve } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Data, Effect, Redacted, type Scope } from "effect"

export const IN_MEMORY = "memory://"

export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly message: string
  readonly cause: unknown
}> {}

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

/**
 * PGlite served over the PostgreSQL wire protocol on a free loopback port,
 * so the embedded database is reached through exactly the client and code
 * paths a real PostgreSQL server is. Closing the scope stops the socket
 * server before PGlite (the other order leaves handlers talking to a closed
 * database).
 */
export const startEmbedded = (
  options: EmbeddedOptions
): Effect.Effect<EmbeddedDatabase, EmbeddedDatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const inMemory = options.dataDir === IN_MEMORY
    const dataDir = inMemory ? IN_MEMORY : resolve(options.dataDir)
    // PGlite creates the directory itself but not its parents.
    if (!inMemory) yield* attempt(`Cannot create ${dataDir}`, () => mkdir(dataDir, { recursive: true }))

    const db = yield* Effect.acquireRelease(
      attempt(`Cannot open PGlite in ${dataDir}`, () => PGlite.create(dataDir)),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    const host = "127.0.0.1"
    // Port 0: the OS picks a free port; pglite-socket reads the real one back after listen.
    const server = new PGLiteSocketServer({ db, host, port: 0, maxConnections: options.maxConnections })
    yield* Effect.acquireRelease(
      attempt("Cannot start the PGlite socket server", () => server.start()),
      () => Effect.promise(() => server.stop()).pipe(Effect.ignore)
    )
    const port = portOf(server.getServerConn())
    yield* Effect.logInfo("Embedded PGlite database started").pipe(
      Effect.annotateLogs({ dataDir, address: `${host}:${port}` })
    )
    return {
      url: Redacted.make(`postgres://postgres@${host}:${port}/postgres`),
      host,
      port,
      dataDir
    }
  })

// getServerConn() is "host:port" for a TCP server.
const portOf = (conn: string): number => Number(conn.slice(conn.lastIndexOf(":") + 1))
