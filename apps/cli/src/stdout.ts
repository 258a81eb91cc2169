import { Data, Effect } from "effect"

/** stdout refused a write (closed by the reader, e.g. `| head`). */
export class StdoutClosed extends Data.TaggedError("StdoutClosed")<{ readonly message: string }> {}

/**
 * Writes `text` to stdout and waits until stdout has taken it (its `drain`
 * when the write filled its buffer), so a command streaming a large answer
 * holds at most one piece of it in memory, however slow the reader.
 */
export const writeStdout = (text: string) =>
  Effect.async<void, StdoutClosed>((resume) => {
    const failed = (error: Error) => resume(Effect.fail(new StdoutClosed({ message: `stdout: ${error.message}` })))
    process.stdout.once("error", failed)
    const done = () => {
      process.stdout.off("error", failed)
      resume(Effect.void)
    }
    if (process.stdout.write(text)) done()
    else process.stdout.once("drain", done)
  })
