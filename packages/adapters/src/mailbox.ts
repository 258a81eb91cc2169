import { randomUUID } from "node:crypto"
import { mkdir, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Config, Effect, Option } from "effect"
import { Production } from "./config.js"
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

interface MailboxChannel {
  /** How the logs name the channel ("email", "text messages"). */
  readonly channel: string
  /** Its folder under the mailbox. */
  readonly folder: string
  /** What to set to send through a provider instead. */
  readonly provider: string
}

/**
 * Says at start where a channel's messages go when no provider is set. In
 * production (NODE_ENV=production) that is a WARN: a message left in a local
 * folder reaches no one, and an operator who forgot the provider's settings
 * must be told before people wait for messages that never come.
 */
export const announceMailbox = (channel: MailboxChannel, dir: Option.Option<string>) =>
  Effect.gen(function*() {
    const where = Option.match(dir, { onNone: () => "(log only)", onSome: (root) => join(root, channel.folder) })
    const fate = Option.isSome(dir) ? "written to this folder" : "only logged"
    return (yield* Production)
      ? yield* Effect.logWarning(`${channel.channel}: local mailbox ${where}: messages are ${fate}, not sent to people (set ${channel.provider})`)
      : yield* Effect.logInfo(`${channel.channel}: local mailbox ${where} (set ${channel.provider})`)
  })
