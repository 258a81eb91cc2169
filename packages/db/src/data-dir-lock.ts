import { createHash, randomUUID } from "node:crypto"
import { link, readFile, rename, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, type Scope } from "effect"
import { EmbeddedDatabaseError } from "./embedded-error.js"

export const LOCK_FILE = "tks.lock"

/**
 * The file that makes one starter the only one to replace the lock written
 * as `content` (exported for tests). One per lock instance: every lock
 * carries a random nonce, so no two instances share it.
 */
export const takeoverFile = (dataDir: string, content: string) =>
  join(dataDir, `${LOCK_FILE}.takeover-${createHash("sha256").update(content).digest("hex").slice(0, 24)}`)

const errorCode = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined

const ignoreMissing = (error: unknown) => {
  if (errorCode(error) !== "ENOENT") throw error
}

/** Lock contents this process holds now; a lock with our pid but not listed here is from an earlier life of the pid. */
const heldHere = new Set<string>()

const holderPid = (content: string) => {
  const pid = Number.parseInt(content, 10)
  return Number.isInteger(pid) && pid > 0 ? pid : 0
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) === "EPERM"
  }
}

/** A lock (or takeover file) whose writer is gone: not running, or an earlier life of this pid (a restarted container). */
const isStale = (content: string) => {
  const pid = holderPid(content)
  if (pid === 0) return true
  return pid === process.pid ? !heldHere.has(content) : !isAlive(pid)
}

/** link() publishes a complete file under `to`, or fails with EEXIST: never a half-written lock. */
const tryLink = async (from: string, to: string) => {
  try {
    await link(from, to)
    return true
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false
    throw error
  }
}

const readIfThere = (path: string) =>
  readFile(path, "utf8").catch((error: unknown) => {
    ignoreMissing(error)
    return undefined
  })

type Claim = { readonly _tag: "Held" } | { readonly _tag: "InUse"; readonly pid: number }

/**
 * Replaces the stale lock `stale` with ours (`draft`, a complete file under
 * a private name). Replacing is serialised per lock instance: only the
 * starter that creates its takeover file may replace it, and it replaces it
 * only if the lock still is that instance. A starter that died holding a
 * takeover file is itself superseded the same way, through the takeover
 * file of its own content.
 */
const takeOver = async (dataDir: string, lock: string, draft: string, stale: string) => {
  const passed: Array<string> = []
  let superseded = stale
  for (let depth = 0; depth < 8; depth++) {
    const marker = takeoverFile(dataDir, superseded)
    if (await tryLink(draft, marker)) {
      passed.push(marker)
      // Nobody else can change the lock now: its writer is gone, and any other
      // taker would need the takeover file we hold.
      const won = (await readIfThere(lock)) === stale
      if (won) await rename(draft, lock)
      await Promise.all(passed.map((path) => unlink(path).catch(ignoreMissing)))
      return won ? "won" : "changed"
    }
    const taker = await readIfThere(marker)
    if (taker === undefined) continue
    if (!isStale(taker)) return "busy"
    passed.push(marker)
    superseded = taker
  }
  return "busy"
}

const claim = async (dataDir: string, content: string): Promise<Claim> => {
  const lock = join(dataDir, LOCK_FILE)
  const draft = join(dataDir, `${LOCK_FILE}.${randomUUID()}.draft`)
  await writeFile(draft, content, { flag: "wx", mode: 0o600 })
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await tryLink(draft, lock)) return { _tag: "Held" }
      const current = await readIfThere(lock)
      if (current === undefined) continue
      if (!isStale(current)) return { _tag: "InUse", pid: holderPid(current) }
      const outcome = await takeOver(dataDir, lock, draft, current)
      if (outcome === "won") return { _tag: "Held" }
      // Another starter is replacing it right now; its lock will be live.
      if (outcome === "busy") await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error("the lock kept changing")
  } finally {
    await unlink(draft).catch(ignoreMissing)
  }
}

const release = async (dataDir: string, content: string) => {
  heldHere.delete(content)
  const lock = join(dataDir, LOCK_FILE)
  // Only our own: a lock is replaced only once its writer is gone.
  if ((await readIfThere(lock)) === content) await unlink(lock).catch(ignoreMissing)
}

/**
 * Claims a PGlite data directory for this process until the scope closes.
 * PGlite takes no lock of its own: two processes on one directory (say the
 * server and a CLI command) both run, and writes are lost (measured: 6 rows
 * of 15,000). The lock file holds "<pid> <nonce>" and appears complete or
 * not at all (link of a finished file). A lock left by a process that is
 * gone, or by an earlier life of this pid (a restarted container), is taken
 * over by exactly one starter.
 */
export const lockDataDir = (dataDir: string): Effect.Effect<void, EmbeddedDatabaseError, Scope.Scope> => {
  const content = `${process.pid} ${randomUUID()}\n`
  const path = join(dataDir, LOCK_FILE)
  // Listed before claiming, so a second claim from this process sees the first as live.
  const acquire = Effect.sync(() => heldHere.add(content)).pipe(
    Effect.zipRight(Effect.tryPromise({
      try: () => claim(dataDir, content),
      catch: (cause) => new EmbeddedDatabaseError({ message: `Cannot lock ${dataDir}`, cause })
    })),
    Effect.flatMap((claimed) =>
      claimed._tag === "Held" ? Effect.void : new EmbeddedDatabaseError({
        message: `${dataDir} is in use by process ${claimed.pid}; stop it first (or delete ${path} if no such process uses it)`
      })
    ),
    Effect.tapError(() => Effect.sync(() => heldHere.delete(content)))
  )
  return Effect.acquireRelease(acquire, () => Effect.promise(() => release(dataDir, content).catch(() => undefined)))
}
