import { Effect, Layer } from "effect"
import type { Delivered, DeliveryFailed } from "@tks/adapters/delivery"
import { MailSender } from "@tks/adapters/mail/port"
import { SmsSender } from "@tks/adapters/sms/port"

/** One hand-over to a sender, as the sender saw it (every attempt, failed ones included). */
export interface Outbound {
  readonly channel: "email" | "sms"
  readonly id: string
  readonly to: string
  readonly name?: string
  readonly subject?: string
  readonly body: string
  /** An email's HTML part. */
  readonly html?: string
}

export type Answer = (message: Outbound) => Effect.Effect<Delivered, DeliveryFailed>

/**
 * Email and text senders a test scripts: each records what it was handed
 * and answers with `answer` (default: taken, with provider id `fake-<n>`).
 */
export const scriptedMessaging = () => {
  const handed: Array<Outbound> = []
  let answer: Answer = () => Effect.succeed({ providerMessageId: `fake-${handed.length}` })
  const send = (message: Outbound) =>
    Effect.suspend(() => {
      handed.push(message)
      return answer(message)
    })
  const layer = Layer.mergeAll(
    Layer.succeed(MailSender, {
      provider: "fake-mail",
      send: (email) => send({ channel: "email", id: email.id, to: email.to, name: email.toName, subject: email.subject, body: email.text, html: email.html })
    }),
    Layer.succeed(SmsSender, {
      provider: "fake-sms",
      send: (text) => send({ channel: "sms", id: text.id, to: text.to, body: text.body })
    })
  )
  return {
    handed,
    layer,
    answerWith: (next: Answer) => {
      answer = next
    }
  }
}
