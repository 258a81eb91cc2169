import { join } from "node:path"
import { Effect, Layer, Option } from "effect"
import type { Delivered } from "../delivery.js"
import { writeMailboxFile } from "../mailbox.js"
import { type OutgoingText, SmsSender } from "./port.js"

/** The text message as a person would read it, with the headers the provider would get. */
const formatText = (text: OutgoingText, date: Date): string =>
  [`To: ${text.to.replace(/[\r\n]+/g, " ")}`, `Date: ${date.toISOString()}`, `Idempotency-Key: ${text.id}`, "", text.body, ""].join("\n")

/**
 * The local text adapter: each message becomes
 * `<dir>/sms/<ntf_…>.txt`; without a directory (DATA_DIR=memory://) it is
 * only logged.
 */
export const mailboxSmsLayer = (dir: Option.Option<string>): Layer.Layer<SmsSender> =>
  Layer.succeed(
    SmsSender,
    Option.match(dir, {
      onNone: () =>
        SmsSender.of({
          provider: "log",
          send: (text) =>
            Effect.logInfo("text message (not sent: no mailbox folder)").pipe(
              Effect.annotateLogs({ notificationId: text.id, to: text.to }),
              Effect.as<Delivered>({ providerMessageId: null })
            )
        }),
      onSome: (root) =>
        SmsSender.of({
          provider: "mailbox",
          send: (text) => Effect.suspend(() => writeMailboxFile(join(root, "sms"), `${text.id}.txt`, formatText(text, new Date())))
        })
    })
  )
