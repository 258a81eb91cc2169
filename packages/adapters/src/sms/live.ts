import { Config, type ConfigError, Effect, Layer, Option } from "effect"
import { announceMailbox, MailboxDir } from "../mailbox.js"
import { mailboxSmsLayer } from "./local.js"
import type { SmsSender } from "./port.js"
import { TwilioConfig, twilioLayer } from "./twilio.js"

/**
 * The text-message adapter the environment asks for: Twilio when
 * TWILIO_ACCOUNT_SID is set, else the local mailbox folder. Says which at
 * start; in production the mailbox is a WARN, since the texts then reach
 * nobody.
 */
export const SmsSenderLive: Layer.Layer<SmsSender, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const sid = yield* Config.option(Config.string("TWILIO_ACCOUNT_SID"))
    if (!Option.exists(sid, (value) => value.trim() !== "")) {
      const dir = yield* MailboxDir
      yield* announceMailbox(
        { channel: "text messages", folder: "sms", provider: "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM to send through Twilio" },
        dir
      )
      return mailboxSmsLayer(dir)
    }
    const settings = yield* TwilioConfig
    yield* Effect.logInfo("text messages: Twilio").pipe(Effect.annotateLogs({ baseUrl: settings.baseUrl.href }))
    return twilioLayer(settings)
  })
)
