import { Config, type ConfigError, Effect, Layer, Option } from "effect"
import { MailboxDir } from "../mailbox.js"
import { mailboxSmsLayer } from "./local.js"
import type { SmsSender } from "./port.js"
import { TwilioConfig, twilioLayer } from "./twilio.js"

/**
 * The text-message adapter the environment asks for: Twilio when
 * TWILIO_ACCOUNT_SID is set, else the local mailbox folder. Says which at
 * start.
 */
export const SmsSenderLive: Layer.Layer<SmsSender, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const sid = yield* Config.option(Config.string("TWILIO_ACCOUNT_SID"))
    if (!Option.exists(sid, (value) => value.trim() !== "")) {
      const dir = yield* MailboxDir
      yield* Effect.logInfo(
        `text messages: local mailbox ${Option.match(dir, { onNone: () => "(log only)", onSome: (root) => `${root}/sms` })} (set TWILIO_ACCOUNT_SID to send through Twilio)`
      )
      return mailboxSmsLayer(dir)
    }
    const settings = yield* TwilioConfig
    yield* Effect.logInfo("text messages: Twilio").pipe(Effect.annotateLogs({ baseUrl: settings.baseUrl.href }))
    return twilioLayer(settings)
  })
)
