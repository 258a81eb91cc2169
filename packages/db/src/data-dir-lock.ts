import { open, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { Effect, type Scope } from "effect"
import { EmbeddedDatabaseError } from "./embedded-error.js"

export const LOCK_FILE = "tks.lock"

const errorCode = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) === "EPERM"
  }
}

// "claimed", or the pid written in an existing lock (0 when unreadable).
const claim = (path: string) =>
  Effect.tryPromise({
    try: async (): Promise<"claimed" | number> => {
      try {
        const handle = await open(path, "wx")
        await handle.writeFile(String(process.pid)).finally(() => handle.close())
        return "claimed"
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error
        const pid = Number.parseInt(await readFile(path, "utf8").catch(() => ""), 10)
        return Number.isInteger(pid) ? pid : 0
      }
    },
    catch: (cause) => new EmbeddedDatabaseError({ message: `Cannot create ${path}`, cause })
  })

/**
 * Claims a PGlite data directory for this process until the scope closes.
 * PGlite takes no lock of its own: two processes on one directory (say the
 * server and a CLI command) both run, and writes are lost (measured: 6 rows
 * of 15,000). A lock left by a process that is gone, or by an earlier life of
 * this pid (a restarted container), is taken over.
 */
export const lockDataDir = (dataDir: string): Effect.Effect<void, EmbeddedDatabaseError, Scope.Scope> => {
  const path = join(dataDir, LOCK_FILE)
  const acquire = Effect.gen(function*() {
    // Twice: once more after clearing a stale lock; losing that race to another starter is an error.
    for (let attempt = 0; attempt < 2; attempt++) {
      const holder = yield* claim(path)
      if (holder === "claimed") return
      if (holder !== process.pid && holder > 0 && isAlive(holder)) {
        return yield* new EmbeddedDatabaseError({
          message: `${dataDir} is in use by process ${holder}; stop it first (or delete ${path} if no such process uses it)`
        })
      }
      yield* Effect.promise(() => rm(path, { force: true }))
    }
    return yield* new EmbeddedDatabaseError({ message: `Cannot lock ${dataDir}: another process is claiming it` })
  })
  return Effect.acquireRelease(acquire, () => Effect.promise(() => rm(path, { force: true })))
}
