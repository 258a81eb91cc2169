import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Logger, Option } from "effect"
import PostalMime from "postal-mime"
import { MailboxMailLive, mailboxMailLayer } from "@tks/adapters/mail/local"
import { MailSenderLive } from "@tks/adapters/mail/live"
import { MailSender, type OutgoingEmail } from "@tks/adapters/mail/port"
import { SmsSenderLive } from "@tks/adapters/sms/live"
import { mailboxSmsLayer } from "@tks/adapters/sms/local"
import { SmsSender } from "@tks/adapters/sms/port"

const email: OutgoingEmail = {
  id: "ntf_local0000000000000001",
  to: "zoe@acme.test",
  toName: "Zoë \"Z\" Quinn",
  subject: "Pop quiz ready: Fire exits",
  text: "Hi Zoë,\n\nYour pop quiz \"Fire exits\" is ready.\nDue 1 December 2026.\n",
  html: "<!DOCTYPE html>\n<html lang=\"en\">\n<body>\n<p>Hi Zoë,</p>\n<p>Your pop quiz &quot;Fire exits&quot; is ready.</p>\n<p><a href=\"https://learn.acme.test/pop-quizzes/pq_1\">Open the quiz</a></p>\n</body>\n</html>\n"
}

const scratch = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "tks-mailbox-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const withEnv = (env: Record<string, string>) => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("the local mailbox (no provider configured)", () => {
  it.scopedLive("an email becomes <dir>/email/<id>.eml: a message a mail program reads, with its Message-ID and both parts (text and HTML), that a person can read as it is", () =>
    Effect.gen(function*() {
      const dir = yield* scratch
      const receipt = yield* Effect.flatMap(MailSender, (mail) => mail.send(email)).pipe(Effect.provide(mailboxMailLayer(Option.some(dir))))
      const file = join(dir, "email", "ntf_local0000000000000001.eml")
      expect(receipt.providerMessageId).toBe(file)
      const raw = readFileSync(file, "utf8")
      // Readable as it is: neither part is encoded.
      expect(raw).toContain("Your pop quiz \"Fire exits\" is ready.")
      expect(raw).toContain("<a href=\"https://learn.acme.test/pop-quizzes/pq_1\">Open the quiz</a>")
      expect(raw).toMatch(/^Content-Type: multipart\/alternative; boundary="[^"]+"\r$/m)
      expect(raw).toContain("Subject: Pop quiz ready: Fire exits")
      const parsed = yield* Effect.promise(() => PostalMime.parse(raw))
      expect(parsed.messageId).toBe("<ntf_local0000000000000001@tks>")
      expect(parsed.subject).toBe("Pop quiz ready: Fire exits")
      expect(parsed.to).toEqual([{ name: "Zoë \"Z\" Quinn", address: "zoe@acme.test" }])
      // The parser keeps the line break that opens the next boundary: the parts are compared without trailing space.
      expect(parsed.text?.replace(/\r\n/g, "\n").trimEnd()).toBe(email.text.trimEnd())
      expect(parsed.html?.replace(/\r\n/g, "\n").trimEnd()).toBe(email.html.trimEnd())
      expect(parsed.headers.find((header) => header.key === "x-notification-id")?.value).toBe("ntf_local0000000000000001")
      // Only the owner reads the mailbox.
      expect(statSync(file).mode & 0o777).toBe(0o600)
    }))

  it.scopedLive("delivering the same message again replaces its file: one file per message, no partial files left", () =>
    Effect.gen(function*() {
      const dir = yield* scratch
      const send = (message: OutgoingEmail) =>
        Effect.flatMap(MailSender, (mail) => mail.send(message)).pipe(Effect.provide(mailboxMailLayer(Option.some(dir))))
      yield* send(email)
      yield* send({ ...email, subject: "Pop quiz ready: Fire exits (again)" })
      expect(readdirSync(join(dir, "email"))).toEqual(["ntf_local0000000000000001.eml"])
      expect(readFileSync(join(dir, "email", "ntf_local0000000000000001.eml"), "utf8")).toContain("(again)")
    }))

  it.scopedLive("a text becomes <dir>/sms/<id>.txt with the number, the Idempotency-Key and the message", () =>
    Effect.gen(function*() {
      const dir = yield* scratch
      yield* Effect.flatMap(SmsSender, (sms) => sms.send({ id: "ntf_text0000000000000001", to: "+15550100001", body: "Pop quiz ready: Fire exits." })).pipe(
        Effect.provide(mailboxSmsLayer(Option.some(dir)))
      )
      const lines = readFileSync(join(dir, "sms", "ntf_text0000000000000001.txt"), "utf8").split("\n")
      expect(lines[0]).toBe("To: +15550100001")
      expect(lines[1]).toMatch(/^Date: \d{4}-\d\d-\d\dT/)
      expect(lines.slice(2)).toEqual(["Idempotency-Key: ntf_text0000000000000001", "", "Pop quiz ready: Fire exits.", ""])
    }))

  it.scopedLive("the folder is MAILBOX_DIR, else mailbox/ under DATA_DIR; with DATA_DIR=memory:// messages are only logged", () =>
    Effect.gen(function*() {
      const dir = yield* scratch
      const underDataDir = yield* Effect.flatMap(MailSender, (mail) => mail.send(email)).pipe(
        Effect.provide(MailboxMailLive.pipe(Layer.provide(withEnv({ DATA_DIR: join(dir, "data") }))))
      )
      expect(underDataDir.providerMessageId).toBe(join(dir, "data", "mailbox", "email", "ntf_local0000000000000001.eml"))
      const chosen = yield* Effect.flatMap(MailSender, (mail) => mail.send(email)).pipe(
        Effect.provide(MailboxMailLive.pipe(Layer.provide(withEnv({ DATA_DIR: "memory://", MAILBOX_DIR: join(dir, "box") }))))
      )
      expect(chosen.providerMessageId).toBe(join(dir, "box", "email", "ntf_local0000000000000001.eml"))
      const provider = yield* Effect.map(MailSender, (mail) => mail.provider).pipe(
        Effect.provide(MailboxMailLive.pipe(Layer.provide(withEnv({ DATA_DIR: "memory://" }))))
      )
      expect(provider).toBe("log")
    }))
})

describe("which adapter the environment chooses", () => {
  it.scoped("SMTP when SMTP_HOST is set, else the mailbox; Twilio when TWILIO_ACCOUNT_SID is set, else the mailbox", () =>
    Effect.gen(function*() {
      const providers = (env: Record<string, string>) =>
        Effect.all([MailSender, SmsSender]).pipe(
          Effect.map(([mail, sms]) => [mail.provider, sms.provider]),
          Effect.provide(Layer.merge(MailSenderLive, SmsSenderLive).pipe(Layer.provide(withEnv(env))))
        )
      expect(yield* providers({ DATA_DIR: "memory://" })).toEqual(["log", "log"])
      expect(yield* providers({ MAILBOX_DIR: "/nonexistent/mailbox", SMTP_HOST: " " })).toEqual(["mailbox", "mailbox"])
      expect(yield* providers({
        SMTP_HOST: "smtp.acme.test",
        MAIL_FROM: "Training <training@acme.test>",
        TWILIO_ACCOUNT_SID: "AC01",
        TWILIO_AUTH_TOKEN: "token",
        SMS_FROM: "+15550109999"
      })).toEqual(["smtp", "twilio"])
    }))

  it.scoped("SMTP without MAIL_FROM, and Twilio without its token or sender, stop the start naming the variable", () =>
    Effect.gen(function*() {
      const mail = yield* Effect.exit(Layer.build(MailSenderLive.pipe(Layer.provide(withEnv({ SMTP_HOST: "smtp.acme.test" })))))
      expect(Exit.isFailure(mail) && String(mail.cause)).toContain("MAIL_FROM")
      const sms = yield* Effect.exit(Layer.build(SmsSenderLive.pipe(Layer.provide(withEnv({ TWILIO_ACCOUNT_SID: "AC01", SMS_FROM: "+1555" })))))
      expect(Exit.isFailure(sms) && String(sms.cause)).toContain("TWILIO_AUTH_TOKEN")
      const port = yield* Effect.exit(Layer.build(MailSenderLive.pipe(Layer.provide(withEnv({ SMTP_HOST: "smtp.acme.test", MAIL_FROM: "a@b.test", SMTP_PORT: "99999" })))))
      expect(Exit.isFailure(port) && String(port.cause)).toContain("SMTP_PORT")
    }))

  it.effect("the local mailbox is a WARN in production (the messages reach no one), naming where they go and what to set; an INFO otherwise; none with providers", () =>
    Effect.gen(function*() {
      const startLines = (env: Record<string, string>) =>
        Effect.gen(function*() {
          const lines: Array<string> = []
          const logger = Logger.make(({ logLevel, message }) => {
            lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
          })
          yield* Layer.build(Layer.merge(MailSenderLive, SmsSenderLive)).pipe(
            Effect.provide(Layer.merge(withEnv(env), Logger.replace(Logger.defaultLogger, logger))),
            Effect.scoped
          )
          // The two adapters are built side by side: their lines come in either order.
          return lines.sort()
        })
      expect(yield* startLines({ NODE_ENV: "production", DATA_DIR: "memory://" })).toEqual([
        "WARN email: local mailbox (log only): messages are only logged, not sent to people (set SMTP_HOST and MAIL_FROM to send through SMTP)",
        "WARN text messages: local mailbox (log only): messages are only logged, not sent to people (set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM to send through Twilio)"
      ])
      expect(yield* startLines({ MAILBOX_DIR: "/srv/box" })).toEqual([
        "INFO email: local mailbox /srv/box/email (set SMTP_HOST and MAIL_FROM to send through SMTP)",
        "INFO text messages: local mailbox /srv/box/sms (set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM to send through Twilio)"
      ])
      const withProviders = yield* startLines({
        NODE_ENV: "production",
        SMTP_HOST: "smtp.acme.test",
        MAIL_FROM: "Training <training@acme.test>",
        TWILIO_ACCOUNT_SID: "AC01",
        TWILIO_AUTH_TOKEN: "token",
        SMS_FROM: "+15550109999"
      })
      expect(withProviders).toEqual(["INFO email: SMTP", "INFO text messages: Twilio"])
    }))
})
