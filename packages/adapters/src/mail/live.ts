import { Config, type ConfigError, Effect, Layer, Option } from "effect"
import { announceMailbox, MailboxDir } from "../mailbox.js"
import { mailboxMailLayer } from "./local.js"
import type { MailSender } from "./port.js"
import { SmtpConfig, smtpLayer } from "./smtp.js"

/**
 * The email adapter the environment asks for: SMTP when SMTP_HOST is set,
 * else the local mailbox folder. Says which at start; in production the
 * mailbox is a WARN, since the messages then reach nobody.
 */
export const MailSenderLive: Layer.Layer<MailSender, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const host = yield* Config.option(Config.string("SMTP_HOST"))
    if (!Option.exists(host, (value) => value.trim() !== "")) {
      const dir = yield* MailboxDir
      yield* announceMailbox({ channel: "email", folder: "email", provider: "SMTP_HOST and MAIL_FROM to send through SMTP" }, dir)
      return mailboxMailLayer(dir)
    }
    const settings = yield* SmtpConfig
    yield* Effect.logInfo("email: SMTP").pipe(
      Effect.annotateLogs({ host: settings.host, port: settings.port, secure: settings.secure, requireTls: settings.requireTls })
    )
    return smtpLayer(settings)
  })
)
