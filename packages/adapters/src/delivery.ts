import { Schema } from "effect"

/**
 * What the email and text adapters share: the receipt of a message handed
 * over, and the two ways a hand-over fails.
 */

/** The provider took the message. `providerMessageId`: its own id for it (Twilio's SID, the SMTP server's queue reply, the mailbox file), when it gives one. */
export interface Delivered {
  readonly providerMessageId: string | null
}

/**
 * The provider did not take the message. `retryable`: the same message may
 * go through later (no connection, a timeout, a rate limit, a temporary
 * refusal, a server error); otherwise the provider refused it for good (an
 * invalid number, an address the mail server rejects) and trying again
 * would only be refused again. `reason` is for the log and the attempt
 * record: never a credential.
 */
export class DeliveryFailed extends Schema.TaggedError<DeliveryFailed>()("DeliveryFailed", {
  retryable: Schema.Boolean,
  reason: Schema.String
}) {}

export const retryable = (reason: string) => new DeliveryFailed({ retryable: true, reason })
export const permanent = (reason: string) => new DeliveryFailed({ retryable: false, reason })

/**
 * The RFC 5322 Message-ID of the message with this id (`<ntf_…@tks>`): every
 * delivery of one notification carries the same one, so a receiver can
 * recognise a repeat.
 */
export const messageIdOf = (id: string): string => `<${id}@tks>`
