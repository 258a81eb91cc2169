import { randomUUID } from "node:crypto"
import { join } from "node:path"
import { Effect, Layer, Option } from "effect"
import { type Delivered, messageIdOf } from "../delivery.js"
import { MailboxDir, writeMailboxFile } from "../mailbox.js"
import { type OutgoingEmail, MailSender } from "./port.js"

/** The From of messages that never leave the machine. */
const localFrom = "Training and Knowledge Service <no-reply@localhost>"

// Header values stay on one line whatever the text holds.
const oneLine = (value: string) => value.replace(/[\r\n]+/g, " ")
const quoted = (name: string) => `"${oneLine(name).replace(/["\\]/g, (c) => `\\${c}`)}"`

/**
 * The message as an .eml file any mail program opens: plain headers, then
 * the plain-text and the HTML part side by side (multipart/alternative, as
 * SMTP sends it), each as written (UTF-8, 8bit, so a person can read the
 * file as it is). The boundary is random, so no text can end a part early.
 */
const formatEml = (email: OutgoingEmail, from: string, date: Date): string => {
  const boundary = `=_tks_${randomUUID()}`
  const part = (type: string, body: string) => [
    `--${boundary}`,
    `Content-Type: ${type}; charset=utf-8`,
    "Content-Transfer-Encoding: 8bit",
    "",
    body.replace(/\r?\n/g, "\r\n")
  ]
  return [
    `From: ${oneLine(from)}`,
    `To: ${quoted(email.toName)} <${oneLine(email.to)}>`,
    `Subject: ${oneLine(email.subject)}`,
    `Date: ${date.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: ${messageIdOf(email.id)}`,
    `X-Notification-Id: ${email.id}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    ...part("text/plain", email.text),
    ...part("text/html", email.html),
    `--${boundary}--`,
    ""
  ].join("\r\n")
}

/**
 * The local email adapter: each message becomes
 * `<dir>/email/<ntf_…>.eml`; without a directory (DATA_DIR=memory://) it is
 * only logged.
 */
export const mailboxMailLayer = (dir: Option.Option<string>): Layer.Layer<MailSender> =>
  Layer.succeed(
    MailSender,
    Option.match(dir, {
      onNone: () =>
        MailSender.of({
          provider: "log",
          send: (email) =>
            Effect.logInfo("email (not sent: no mailbox folder)").pipe(
              Effect.annotateLogs({ notificationId: email.id, to: email.to, subject: email.subject }),
              Effect.as<Delivered>({ providerMessageId: null })
            )
        }),
      onSome: (root) =>
        MailSender.of({
          provider: "mailbox",
          send: (email) =>
            Effect.suspend(() => writeMailboxFile(join(root, "email"), `${email.id}.eml`, formatEml(email, localFrom, new Date())))
        })
    })
  )

/** The local mailbox under MAILBOX_DIR or DATA_DIR (see `MailboxDir`). */
export const MailboxMailLive = Layer.unwrapEffect(Effect.map(MailboxDir, mailboxMailLayer))
