import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Option, Redacted } from "effect"
import { DeliveryFailed } from "@tks/adapters/delivery"
import { MailSender, type OutgoingEmail } from "@tks/adapters/mail/port"
import { smtpFailure, smtpLayer, type SmtpSettings } from "@tks/adapters/mail/smtp"
import { closedPort } from "./support/loopback-server.js"
import { smtpFake } from "./support/smtp-fake.js"

const email: OutgoingEmail = {
  id: "ntf_smtp0000000000000001",
  to: "ava.thompson@acme.test",
  toName: "Ava Thompson",
  subject: "New training: Forklift safety",
  text: "Hi Ava,\n\nYou have been assigned the lesson \"Forklift safety\".\n",
  html: "<!DOCTYPE html>\n<html lang=\"en\"><body><p>Hi Ava,</p><p>You have been assigned the lesson &quot;Forklift safety&quot;.</p></body></html>\n"
}

const settingsFor = (port: number, overrides: Partial<SmtpSettings> = {}): SmtpSettings => ({
  host: "127.0.0.1",
  port,
  secure: false,
  requireTls: false,
  user: Option.none(),
  password: Option.none(),
  from: "Training <training@acme.test>",
  timeout: Duration.seconds(5),
  ...overrides
})

const sendThrough = (settings: SmtpSettings, message: OutgoingEmail = email) =>
  Effect.flatMap(MailSender, (mail) => mail.send(message)).pipe(Effect.provide(smtpLayer(settings)), Effect.exit)

const failureOf = <A>(exit: Exit.Exit<A, DeliveryFailed>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : Exit.isSuccess(exit) ? "succeeded" : String(exit.cause)

// scopedLive: a real SMTP server on loopback and real socket deadlines.
describe("email through SMTP (nodemailer against a real in-process SMTP server)", () => {
  it.scopedLive("the message arrives with Message-ID <ntf_…@tks>, X-Notification-Id, From, the person's name and address, subject, and its text and HTML parts as multipart/alternative", () =>
    Effect.gen(function*() {
      const server = yield* smtpFake()
      const exit = yield* sendThrough(settingsFor(server.port))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(server.received).toHaveLength(1)
      expect(server.received[0]).toMatchObject({
        messageId: "<ntf_smtp0000000000000001@tks>",
        notificationId: "ntf_smtp0000000000000001",
        from: "training@acme.test",
        to: [{ name: "Ava Thompson", address: "ava.thompson@acme.test" }],
        subject: "New training: Forklift safety",
        acknowledged: true
      })
      // The parser keeps the line break that opens the next boundary: the parts are compared without trailing space.
      expect(server.received[0]!.text?.trimEnd()).toBe(email.text.trimEnd())
      expect(server.received[0]!.html?.trimEnd()).toBe(email.html.trimEnd())
      expect(server.received[0]!.contentType).toMatch(/^multipart\/alternative;/)
      // The server's queue reply names its id for the message.
      if (Exit.isSuccess(exit)) expect(exit.value.providerMessageId).toContain("queued as Q1")
    }))

  it.scopedLive("with SMTP_USER and SMTP_PASSWORD the client logs in; the same message sent twice carries the same Message-ID", () =>
    Effect.gen(function*() {
      const server = yield* smtpFake({ login: { user: "mailer", pass: "s3cret-pass" } })
      const settings = settingsFor(server.port, { user: Option.some("mailer"), password: Option.some(Redacted.make("s3cret-pass")) })
      expect(Exit.isSuccess(yield* sendThrough(settings))).toBe(true)
      expect(Exit.isSuccess(yield* sendThrough(settings))).toBe(true)
      expect(server.received.map((mail) => [mail.user, mail.messageId])).toEqual([
        ["mailer", "<ntf_smtp0000000000000001@tks>"],
        ["mailer", "<ntf_smtp0000000000000001@tks>"]
      ])
    }))

  it.scopedLive("a refused login is retryable (the operator fixes the credentials; the message is fine)", () =>
    Effect.gen(function*() {
      const server = yield* smtpFake({ login: { user: "mailer", pass: "right" } })
      const exit = yield* sendThrough(settingsFor(server.port, { user: Option.some("mailer"), password: Option.some(Redacted.make("wrong")) }))
      expect(failureOf(exit)).toMatchObject({ _tag: "DeliveryFailed", retryable: true })
      expect(server.received).toHaveLength(0)
    }))

  it.scopedLive("a recipient the server refuses with 550 is a permanent failure; 450 (mailbox busy) is retryable", () =>
    Effect.gen(function*() {
      const server = yield* smtpFake()
      server.refuseRecipient((address) => address.startsWith("gone") ? { code: 550, message: "5.1.1 No such user" } : { code: 450, message: "4.2.1 Mailbox busy" })
      const gone = yield* sendThrough(settingsFor(server.port), { ...email, to: "gone@acme.test" })
      expect(failureOf(gone)).toMatchObject({ retryable: false })
      expect((failureOf(gone) as DeliveryFailed).reason).toContain("550")
      const busy = yield* sendThrough(settingsFor(server.port), { ...email, to: "busy@acme.test" })
      expect(failureOf(busy)).toMatchObject({ retryable: true })
      expect((failureOf(busy) as DeliveryFailed).reason).toContain("450")
    }))

  it.scopedLive("a message refused after its DATA: 554 is permanent, 451 is retryable", () =>
    Effect.gen(function*() {
      const server = yield* smtpFake()
      server.setReply(() => ({ code: 554, message: "5.7.1 Message rejected" }))
      expect(failureOf(yield* sendThrough(settingsFor(server.port)))).toMatchObject({ retryable: false })
      server.setReply(() => ({ code: 451, message: "4.3.0 Try again later" }))
      expect(failureOf(yield* sendThrough(settingsFor(server.port)))).toMatchObject({ retryable: true })
    }))

  it.scopedLive("no server listening, and a server that does not answer within SMTP_TIMEOUT_MS, are retryable", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      expect(failureOf(yield* sendThrough(settingsFor(port)))).toMatchObject({ retryable: true })
      const slow = yield* smtpFake({ delayMs: 3_000 })
      const exit = yield* sendThrough(settingsFor(slow.port, { timeout: Duration.millis(500) }))
      expect(failureOf(exit)).toMatchObject({ retryable: true })
    }))

  it.scopedLive("the deadline holds even when the send cannot be interrupted (delivery sends uninterruptibly)", () =>
    Effect.gen(function*() {
      const slow = yield* smtpFake({ delayMs: 3_000 })
      const exit = yield* Effect.flatMap(MailSender, (mail) => Effect.uninterruptible(mail.send(email))).pipe(
        Effect.provide(smtpLayer(settingsFor(slow.port, { timeout: Duration.millis(500) }))),
        Effect.exit
      )
      expect(failureOf(exit)).toMatchObject({ _tag: "DeliveryFailed", retryable: true })
    }))
})

describe("which SMTP failures are worth another attempt", () => {
  const nodemailerError = (fields: Record<string, unknown>) => Object.assign(new Error("failed"), fields)

  it("by the server's reply: 5xx permanent except 503; 4xx retryable; by nodemailer's own verdict when it gives one", () => {
    expect(smtpFailure(nodemailerError({ code: "EENVELOPE", responseCode: 550, response: "550 5.1.1 No such user" })).retryable).toBe(false)
    expect(smtpFailure(nodemailerError({ code: "EMESSAGE", responseCode: 552 })).retryable).toBe(false)
    expect(smtpFailure(nodemailerError({ code: "EPROTOCOL", responseCode: 503 })).retryable).toBe(true)
    expect(smtpFailure(nodemailerError({ code: "EMESSAGE", responseCode: 421 })).retryable).toBe(true)
    expect(smtpFailure(nodemailerError({ code: "EMESSAGE", responseCode: 550, permanent: false })).retryable).toBe(true)
    expect(smtpFailure(nodemailerError({ code: "EMESSAGE", responseCode: 451, permanent: true })).retryable).toBe(false)
  })

  it("without a reply: no connection, a timeout, an aborted send and a refused login are retryable; no usable address is not", () => {
    for (const code of ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "EABORT", "ETLS"]) {
      expect(smtpFailure(nodemailerError({ code })).retryable).toBe(true)
    }
    expect(smtpFailure(nodemailerError({ code: "EAUTH", responseCode: 535, permanent: true })).retryable).toBe(true)
    expect(smtpFailure(nodemailerError({ code: "EENVELOPE" })).retryable).toBe(false)
    expect(smtpFailure("not even an error").retryable).toBe(true)
  })

  it("the reason quotes the server's reply line, never more", () => {
    const failure = smtpFailure(nodemailerError({ code: "EMESSAGE", responseCode: 554, response: "554 5.7.1 Rejected\r\nsecond line" }))
    expect(failure).toBeInstanceOf(DeliveryFailed)
    expect(failure.reason).toBe("SMTP 554 5.7.1 Rejected")
  })
})
