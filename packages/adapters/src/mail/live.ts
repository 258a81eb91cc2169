import { Config, type ConfigError, Effect, Layer, Option } from "effect"
import { MailboxDir } from "../mailbox.js"
import { mailboxMailLayer } from "./local.js"
import type { MailSender } from "./port.js"
import { SmtpConfig, smtpLayer } from "./smtp.js"

/**
 * The email adapter the environment asks for: SMTP when SMTP_HOST is set,
 * else the local mailbox folder. Says which at start.
 */
export const MailSenderLive: Layer.Layer<MailSender, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const host = yield* Config.option(Config.string("SMTP_HOST"))
    if (!Option.exists(host, (value) => value.trim() !== "")) {
      const dir = yield* MailboxDir
      yield* Effect.logInfo(
        `email: local mailbox ${Option.match(dir, { onNone: () => "(log only)", onSome: (root) => `${root}/email` })} (set SMTP_HOST to send through SMTP)`
      )
      return mailboxMailLayer(dir)
    }
    const settings = yield* SmtpConfig
    yield* Effect.logInfo("email: SMTP").pipe(
      Effect.annotateLogs({ host: settings.host, port: settings.port, secure: settings.secure, requireTls: settings.requireTls })
    )
    return smtpLayer(settings)
  })
)
