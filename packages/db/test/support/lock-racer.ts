/**
 * A separate process that races for data-directory locks on command (run
 * with `node --import tsx`, forked with an IPC channel by
 * data-dir-lock.test.ts). Messages in: {claim: dir, at} (claim at that
 * instant, by the clock all processes share) and {release: dir}. Messages
 * out: {ready}, {dir, held, message?} and {released: dir}.
 */
import { Effect, Exit, Scope } from "effect"
import { lockDataDir } from "../../src/data-dir-lock.js"

type Command = { readonly claim: string; readonly at: number } | { readonly release: string }

const scopes = new Map<string, Scope.CloseableScope>()
const send = (message: object) => process.send?.(message)

const claim = async (dir: string, at: number) => {
  // Sleep to just before the instant, then spin, so every racer starts together.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() - 5)))
  while (Date.now() < at) { /* spin */ }
  const scope = Effect.runSync(Scope.make())
  const exit = await Effect.runPromiseExit(lockDataDir(dir).pipe(Scope.extend(scope)))
  if (Exit.isSuccess(exit)) {
    scopes.set(dir, scope)
    send({ dir, held: true })
  } else {
    send({ dir, held: false, message: Exit.isFailure(exit) ? String(exit.cause) : "" })
  }
}

const release = async (dir: string) => {
  const scope = scopes.get(dir)
  scopes.delete(dir)
  if (scope) await Effect.runPromise(Scope.close(scope, Exit.void))
  send({ released: dir })
}

process.on("message", (command: Command) => {
  void ("claim" in command ? claim(command.claim, command.at) : release(command.release))
})
// Ends with the parent (the IPC channel closes).
process.on("disconnect", () => process.exit(0))
send({ ready: true })
