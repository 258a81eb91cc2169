import { randomUUID } from "node:crypto"
import { mkdir, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Config, Effect, Option } from "effect"
import { type Delivered, retryable } from "./delivery.js"

/**
 * The local mailbox: where email and texts go when no provider is
 * configured, one readable file per message. MAILBOX_DIR, else `mailbox`
 * under DATA_DIR (default ./.data, as the embedded database reads it). With
 * DATA_DIR=memory:// and no MAILBOX_DIR there is no folder: messages are
 * only logged.
 */
export const MailboxDir: Config.Config<Option.Option<string>> = Config.all([
  Config.option(Config.nonEmptyString("MAILBOX_DIR")),
  Config.string("DATA_DIR").pipe(Config.withDefault("./.data"))
]).pipe(
  Config.map(([mailbox, dataDir]) =>
    Option.orElse(mailbox, () => dataDir === "memory://" ? Option.none() : Option.some(join(dataDir, "mailbox")))
  )
)

/**
 * Writes `content` as `<dir>/<name>` atomically (a unique temporary name,
 * then a rename), so a reader never sees half a message. The file is named
 * for the message: a repeated delivery replaces it, as a receiver that
 * recognises the message would.
 */
export const writeMailboxFile = (dir: string, name: string, content: string) =>
  Effect.tryPromise({
    try: async (): Promise<Delivered> => {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const file = join(dir, name)
      const partial = join(dir, `.${name}.${randomUUID()}.partial`)
      await writeFile(partial, content, { encoding: "utf8", mode: 0o600 })
      await rename(partial, file)
      return { providerMessageId: file }
    },
    // A full disk or a permission problem may be fixed by the next attempt.
    catch: (cause) => retryable(`could not write to the mailbox: ${cause instanceof Error ? cause.message : String(cause)}`)
  })
