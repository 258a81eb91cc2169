import { Webhook } from "standardwebhooks"

/**
 * The Standard Webhooks signature headers of one attempt: the reference
 * library signs `{webhook-id}.{webhook-timestamp}.{body}` with each secret
 * (HMAC-SHA256), and `webhook-signature` carries every signature, space
 * separated, so a receiver verifies with whichever secret it holds (both
 * during the 24 hours after a rotation). The timestamp is the attempt's:
 * a receiver's tolerance window (5 minutes in the library) holds for a
 * retry hours later.
 */
export const signatureHeaders = (
  messageId: string,
  at: Date,
  body: string,
  secrets: ReadonlyArray<string>
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> => ({
  "webhook-id": messageId,
  "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" ")
})
