import { Context, type Effect } from "effect"
import type { Delivered, DeliveryFailed } from "../delivery.js"

/** One email to one person. */
export interface OutgoingEmail {
  /** The notification's id: the Message-ID is built from it (`messageIdOf`), the same on every attempt. */
  readonly id: string
  readonly to: string
  /** Shown beside the address (`"Ava Thompson" <ava@…>`). */
  readonly toName: string
  readonly subject: string
  /** The plain-text part. */
  readonly text: string
  /** The HTML part, the same letter: sent beside the text (multipart/alternative), the reader's program shows one. */
  readonly html: string
}

/** The email port: SMTP in production, a mailbox folder by default. */
export class MailSender extends Context.Tag("@tks/adapters/MailSender")<MailSender, {
  /** Which adapter sends ("smtp", "mailbox", "log"), for the attempt record and the logs. */
  readonly provider: string
  readonly send: (email: OutgoingEmail) => Effect.Effect<Delivered, DeliveryFailed>
}>() {}
