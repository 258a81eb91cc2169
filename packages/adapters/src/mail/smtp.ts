import { Config, Duration, Effect, Layer, Option, Redacted } from "effect"
import { createTransport } from "nodemailer"
import { positiveInteger } from "../config.js"
import { type Delivered, type DeliveryFailed, messageIdOf, permanent, retryable } from "../delivery.js"
import { type OutgoingEmail, MailSender } from "./port.js"

/**
 * Email through an SMTP server with nodemailer. One pool of connections for
 * the process, closed with the layer. Each message carries
 * `Message-ID: <ntf_…@tks>` and `X-Notification-Id`, the same on every
 * attempt, so a receiver can tell a repeated delivery from a new message.
 */
export interface SmtpSettings {
  readonly host: string
  readonly port: number
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  readonly secure: boolean
  /** Refuse to send unless the connection is upgraded with STARTTLS. */
  readonly requireTls: boolean
  readonly user: Option.Option<string>
  readonly password: Option.Option<Redacted.Redacted>
  /** The From header, e.g. `Training <training@example.com>`. */
  readonly from: string
  /** For one message, connecting included. */
  readonly timeout: Duration.Duration
}

const port = Config.integer("SMTP_PORT").pipe(
  Config.validate({ message: "SMTP_PORT must be a port number (1-65535)", validation: (n) => n >= 1 && n <= 65_535 })
)

export const SmtpConfig: Config.Config<SmtpSettings> = Config.all({
  host: Config.nonEmptyString("SMTP_HOST"),
  secure: Config.boolean("SMTP_SECURE").pipe(Config.withDefault(false)),
  port: Config.option(port),
  requireTls: Config.boolean("SMTP_REQUIRE_TLS").pipe(Config.withDefault(false)),
  user: Config.option(Config.nonEmptyString("SMTP_USER")),
  password: Config.option(Config.redacted("SMTP_PASSWORD")),
  from: Config.nonEmptyString("MAIL_FROM"),
  timeout: positiveInteger("SMTP_TIMEOUT_MS", 30_000).pipe(Config.map(Duration.millis))
}).pipe(
  // 465 is implicit TLS; 587 is submission with STARTTLS.
  Config.map((settings) => ({ ...settings, port: Option.getOrElse(settings.port, () => settings.secure ? 465 : 587) }))
)

/** The properties nodemailer puts on the errors it hands back (NodemailerError), read without trusting the shape. */
const field = (cause: unknown, name: string): unknown =>
  typeof cause === "object" && cause !== null ? (cause as Record<string, unknown>)[name] : undefined

/**
 * Whether the same message may go through later. The server's 5xx reply
 * to this message is permanent (nodemailer's `permanent`, which leaves out
 * 503, a bad command sequence); a 4xx reply, no connection, a timeout and a
 * dropped connection are not. A refused login is retryable too: the
 * credentials are the operator's to fix, the message is fine.
 */
export const smtpFailure = (cause: unknown): DeliveryFailed => {
  const code = field(cause, "code")
  const responseCode = field(cause, "responseCode")
  const response = field(cause, "response")
  const message = cause instanceof Error ? cause.message : String(cause)
  const reason = typeof responseCode === "number"
    ? `SMTP ${typeof response === "string" ? response.split(/\r?\n/)[0] : responseCode}`
    : `${typeof code === "string" ? `${code}: ` : ""}${message}`
  if (code === "EAUTH" || code === "ENOAUTH") return retryable(`the SMTP server refused the login: ${reason}`)
  if (field(cause, "permanent") === true) return permanent(reason)
  if (field(cause, "permanent") === undefined && typeof responseCode === "number" && responseCode >= 500 && responseCode !== 503) {
    return permanent(reason)
  }
  // An envelope error without a reply: the address itself is unusable.
  if (code === "EENVELOPE" && typeof responseCode !== "number") return permanent(reason)
  return retryable(reason)
}

const makeSmtpSender = (settings: SmtpSettings) =>
  Effect.gen(function*() {
    const timeoutMs = Duration.toMillis(settings.timeout)
    const transport = yield* Effect.acquireRelease(
      Effect.sync(() =>
        createTransport({
          pool: true,
          host: settings.host,
          port: settings.port,
          secure: settings.secure,
          requireTLS: settings.requireTls,
          connectionTimeout: timeoutMs,
          greetingTimeout: timeoutMs,
          socketTimeout: timeoutMs,
          ...(Option.isSome(settings.user)
            ? { auth: { user: settings.user.value, pass: Option.match(settings.password, { onNone: () => "", onSome: Redacted.value }) } }
            : {})
        })
      ),
      (transport) => Effect.sync(() => transport.close())
    )

    const send = (email: OutgoingEmail): Effect.Effect<Delivered, DeliveryFailed> =>
      Effect.tryPromise({
        // The deadline is the socket's own (an AbortSignal), not the fiber's:
        // delivery runs the send uninterruptibly so that a shutdown cannot
        // cut it between "sent" and "recorded as sent".
        try: () =>
          transport.sendMail({
            from: settings.from,
            to: { name: email.toName, address: email.to },
            subject: email.subject,
            // Both parts: nodemailer sends them as multipart/alternative.
            text: email.text,
            html: email.html,
            messageId: messageIdOf(email.id),
            headers: { "X-Notification-Id": email.id },
            signal: AbortSignal.timeout(timeoutMs)
          }),
        catch: smtpFailure
      }).pipe(
        Effect.map((info): Delivered => ({ providerMessageId: info.serverMessageId ?? info.response ?? null })),
        Effect.withSpan("MailSender.smtp", { attributes: { "notification.id": email.id } })
      )

    return MailSender.of({ provider: "smtp", send })
  })

export const smtpLayer = (settings: SmtpSettings): Layer.Layer<MailSender> => Layer.scoped(MailSender, makeSmtpSender(settings))
