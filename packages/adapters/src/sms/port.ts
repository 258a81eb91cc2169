import { Context, type Effect } from "effect"
import type { Delivered, DeliveryFailed } from "../delivery.js"

/** One text message to one phone number. */
export interface OutgoingText {
  /** The notification's id: sent as the Idempotency-Key, the same on every attempt. */
  readonly id: string
  /** The number as the person's record holds it (E.164 expected, e.g. +15550100001). */
  readonly to: string
  readonly body: string
}

/** The text-message port: Twilio's Messages API in production, a mailbox folder by default. */
export class SmsSender extends Context.Tag("@tks/adapters/SmsSender")<SmsSender, {
  /** Which adapter sends ("twilio", "mailbox", "log"), for the attempt record and the logs. */
  readonly provider: string
  readonly send: (text: OutgoingText) => Effect.Effect<Delivered, DeliveryFailed>
}>() {}
