import { type ChildProcess, fork, spawnSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { LOCK_FILE, lockDataDir, takeoverFile } from "../src/data-dir-lock.js"

const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url))
const RACER = fileURLToPath(new URL("./support/lock-racer.ts", import.meta.url))
const RACERS = 4
const ROUNDS = 20

type Reply = { readonly ready?: true; readonly held?: boolean; readonly message?: string; readonly released?: string }

interface Racer {
  readonly pid: number
  readonly send: (command: object) => void
  readonly next: () => Promise<Reply>
}

// A forked racer with a queue of its replies.
const startRacer = (): Racer => {
  const child: ChildProcess = fork(RACER, [], { cwd: REPO_ROOT, execArgv: ["--import", "tsx"], stdio: "inherit" })
  const replies: Array<Reply> = []
  const waiting: Array<(reply: Reply) => void> = []
  child.on("message", (reply: Reply) => {
    const waiter = waiting.shift()
    if (waiter) waiter(reply)
    else replies.push(reply)
  })
  return {
    pid: child.pid ?? 0,
    send: (command) => child.send(command),
    next: () => {
      const queued = replies.shift()
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve))
    }
  }
}

const racers = Effect.acquireRelease(
  Effect.promise(async () => {
    const started = Array.from({ length: RACERS }, startRacer)
    await Promise.all(started.map((racer) => racer.next()))
    return started
  }),
  (started) => Effect.sync(() => started.forEach((racer) => process.kill(racer.pid)))
)

const temporaryDirectory = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "tks-lock-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

/** Every racer claims `dir` at the same instant; then each releases. The pids that held it. */
const race = (all: ReadonlyArray<Racer>, dir: string) =>
  Effect.promise(async () => {
    const at = Date.now() + 40
    all.forEach((racer) => racer.send({ claim: dir, at }))
    const replies = await Promise.all(all.map((racer) => racer.next()))
    const holders = all.filter((_, i) => replies[i]?.held === true).map((racer) => racer.pid)
    const lockPid = await readFile(join(dir, LOCK_FILE), "utf8").then((text) => Number.parseInt(text, 10), () => 0)
    const refusals = replies.filter((reply) => reply.held === false).map((reply) => reply.message ?? "")
    all.forEach((racer) => racer.send({ release: dir }))
    await Promise.all(all.map((racer) => racer.next()))
    return { holders, lockPid, refusals, left: await readdir(dir) }
  })

// A pid that is certainly not running: a process that has exited.
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid

describe("the data-directory lock", () => {
  it.scopedLive(`${RACERS} processes started together: exactly one holds it, in each of ${ROUNDS} rounds`, () =>
    Effect.gen(function*() {
      const all = yield* racers
      for (let round = 0; round < ROUNDS; round++) {
        const dir = yield* temporaryDirectory
        const { holders, left, lockPid, refusals } = yield* race(all, dir)
        expect(holders).toHaveLength(1)
        expect(lockPid).toBe(holders[0])
        for (const refusal of refusals) expect(refusal).toContain(`in use by process ${holders[0]}`)
        // Released, and no draft or takeover file left behind.
        expect(left).toEqual([])
      }
    }), 60_000)

  it.scopedLive(`a stale lock (its process is gone) is taken over by exactly one of ${RACERS}, in each of ${ROUNDS} rounds`, () =>
    Effect.gen(function*() {
      const all = yield* racers
      for (let round = 0; round < ROUNDS; round++) {
        const dir = yield* temporaryDirectory
        // Both the current format and the bare pid of earlier versions.
        const stale = round % 2 === 0 ? `${deadPid()} ${randomUUID()}\n` : String(deadPid())
        yield* Effect.promise(() => writeFile(join(dir, LOCK_FILE), stale))
        const { holders, left, lockPid } = yield* race(all, dir)
        expect(holders).toHaveLength(1)
        expect(lockPid).toBe(holders[0])
        expect(left).toEqual([])
      }
    }), 60_000)

  it.scopedLive("a starter that died while taking over a stale lock is superseded, and its takeover file removed", () =>
    Effect.gen(function*() {
      const dir = yield* temporaryDirectory
      const stale = `${deadPid()} ${randomUUID()}\n`
      yield* Effect.promise(() => writeFile(join(dir, LOCK_FILE), stale))
      yield* Effect.promise(() => writeFile(takeoverFile(dir, stale), `${deadPid()} ${randomUUID()}\n`))
      yield* lockDataDir(dir)
      const content = yield* Effect.promise(() => readFile(join(dir, LOCK_FILE), "utf8"))
      expect(Number.parseInt(content, 10)).toBe(process.pid)
      expect(yield* Effect.promise(() => readdir(dir))).toEqual([LOCK_FILE])
    }))

  it.scopedLive("a second claim from the same process is refused while the first holds it", () =>
    Effect.gen(function*() {
      const dir = yield* temporaryDirectory
      yield* lockDataDir(dir)
      const second = yield* Effect.either(Effect.scoped(lockDataDir(dir)))
      expect(Either.isLeft(second) && second.left.message).toContain(`in use by process ${process.pid}`)
    }))
})
