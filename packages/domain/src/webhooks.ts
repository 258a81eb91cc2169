import { Either, Schema } from "effect"
import { checkedString } from "./checked-string.js"
import { Count, Timestamp } from "./common.js"
import { OffsetDateTime } from "./due-date.js"
import { EventType } from "./events.js"
import { WebhookDeliveryId, WebhookEndpointId } from "./ids.js"
import { PageParams } from "./page-params.js"
import { storableText } from "./text.js"

/**
 * Webhooks (docs/webhooks.md): an organization's admins register endpoints,
 * each subscribed to event types of the catalogue (events.ts); every event
 * of those types is POSTed to it, signed as Standard Webhooks says, with
 * retries; every delivery is logged and can be replayed.
 */

const describe = (description: string) => ({ description })

export const WEBHOOK_URL_MAX_LENGTH = 2048
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500
export const WEBHOOK_EVENT_TYPES_MAX = 100

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_HOURS = 24

/** An endpoint failing this long without a success is disabled, and the organization's admins are told. */
export const FAILING_DAYS_BEFORE_DISABLE = 3

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024

/** The `type` of a test delivery: not an event of the catalogue, never subscribed to. */
export const PING_TYPE = "ping"

export const webhookUrlMessages = {
  scheme: "url must be an absolute http or https address",
  credentials: "url must not contain a user name or password",
  fragment: "url must not have a fragment (#...): it is never sent",
  length: `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters once percent-encoded`
} as const

/**
 * The rules of the `url` field itself, answering the address as the WHATWG
 * parser serializes it (what is stored and dialed). Whether its host may be
 * reached (public addresses only, https) is the webhook sender's judgement,
 * at create and again at every delivery.
 */
export const checkWebhookUrl = (input: string): Either.Either<string, string> => {
  if (!URL.canParse(input)) return Either.left(webhookUrlMessages.scheme)
  const url = new URL(input)
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return Either.left(webhookUrlMessages.scheme)
  if (url.username !== "" || url.password !== "") return Either.left(webhookUrlMessages.credentials)
  if (url.hash !== "" || input.endsWith("#")) return Either.left(webhookUrlMessages.fragment)
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return Either.left(webhookUrlMessages.length)
  return Either.right(url.href)
}

export const WebhookUrl = checkedString(checkWebhookUrl).annotations({
  identifier: "WebhookUrl",
  description:
    "Where deliveries are POSTed: an https address of a public host (plain http and private or loopback hosts only where the service allows them for development), at most 2048 characters once percent-encoded, without user name, password or fragment.",
  jsonSchema: { type: "string", format: "uri" }
})

const Description = storableText(Schema.String).pipe(
  Schema.filter(
    (value) => value.length <= WEBHOOK_DESCRIPTION_MAX_LENGTH || `description must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`,
    { jsonSchema: { maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH } }
  )
).annotations(describe(`What the endpoint is for, up to ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.`))

const EventTypes = Schema.Array(EventType).pipe(Schema.minItems(1), Schema.maxItems(WEBHOOK_EVENT_TYPES_MAX)).annotations(
  describe("The event types delivered to the endpoint: at least one, each a type of the event catalogue (a repeat counts once).")
)

/** POST /v1/webhook-endpoints. */
export const CreateWebhookEndpoint = Schema.Struct({
  url: WebhookUrl,
  eventTypes: EventTypes,
  description: Schema.optional(Description)
}).annotations({ identifier: "CreateWebhookEndpoint" })
export type CreateWebhookEndpoint = typeof CreateWebhookEndpoint.Type

/** PATCH /v1/webhook-endpoints/{id}: what is left out stays as it is. */
export const UpdateWebhookEndpoint = Schema.Struct({
  url: Schema.optional(WebhookUrl),
  eventTypes: Schema.optional(EventTypes),
  description: Schema.optional(Schema.NullOr(Description).annotations(describe("null clears it."))),
  disabled: Schema.optional(
    Schema.Boolean.annotations(
      describe("true stops deliveries to the endpoint; false enables it again and clears why it was disabled and since when it was failing.")
    )
  )
}).annotations({ identifier: "UpdateWebhookEndpoint" })
export type UpdateWebhookEndpoint = typeof UpdateWebhookEndpoint.Type

export const WebhookEndpoint = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  description: Schema.NullOr(Schema.String),
  eventTypes: Schema.Array(EventType),
  disabled: Schema.Boolean,
  disabledAt: Schema.NullOr(Timestamp),
  disabledReason: Schema.NullOr(Schema.String).annotations(
    describe("Why it was disabled: by an admin, after a 410 answer, or after failing for 3 days.")
  ),
  failingSince: Schema.NullOr(Timestamp).annotations(
    describe("When its current run of failed attempts began; null since its last success.")
  ),
  previousSecretExpiresAt: Schema.NullOr(Timestamp).annotations(
    describe("After a rotation, until when the secret before it still signs each delivery beside the new one; null otherwise.")
  ),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "WebhookEndpoint" })
export type WebhookEndpoint = typeof WebhookEndpoint.Type

/** The answer of creating an endpoint and of rotating its secret: the only two that show the secret. */
export const WebhookEndpointWithSecret = Schema.Struct({
  ...WebhookEndpoint.fields,
  secret: Schema.String.annotations(
    describe("The signing secret (`whsec_` and the base64 of 32 random bytes), for a Standard Webhooks verifier. Shown only here: keep it.")
  )
}).annotations({ identifier: "WebhookEndpointWithSecret" })
export type WebhookEndpointWithSecret = typeof WebhookEndpointWithSecret.Type

export const WebhookDeliveryStatus = Schema.Literal("PENDING", "SUCCEEDED", "FAILED").annotations(
  describe("PENDING: not delivered yet (attempted again later, or not yet); SUCCEEDED: a 2xx answer; FAILED: given up (410, 3 days of retries, or the endpoint disabled).")
)
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  eventId: Schema.String.annotations(describe("The `webhook-id` of every attempt and replay: the event's id, or the ping's.")),
  eventType: Schema.String.annotations(describe("The event's type, or `ping` for a test delivery.")),
  eventPosition: Schema.NullOr(Count).annotations(describe("The event's place in the feed; null for a ping.")),
  status: WebhookDeliveryStatus,
  attempts: Count,
  responseStatus: Schema.NullOr(Schema.Number).annotations(describe("The last attempt's HTTP status; null when it got no answer.")),
  latencyMs: Schema.NullOr(Count).annotations(describe("How long the last attempt waited for its answer (or its failure).")),
  responseBody: Schema.NullOr(Schema.String).annotations(describe("The first 1 KB of the last answer's body.")),
  error: Schema.NullOr(Schema.String).annotations(describe("Why the last attempt failed, or why the delivery was given up.")),
  nextAttemptAt: Schema.NullOr(Timestamp).annotations(describe("When the next attempt is due; null when none is planned.")),
  createdAt: Timestamp,
  deliveredAt: Schema.NullOr(Timestamp)
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

export const WebhookDeliveryListParams = Schema.Struct({
  status: Schema.optional(WebhookDeliveryStatus),
  ...PageParams.fields
})
export type WebhookDeliveryListParams = typeof WebhookDeliveryListParams.Type

/** POST /v1/webhook-endpoints/{id}/replay. */
export const ReplayFailedDeliveries = Schema.Struct({
  since: OffsetDateTime.annotations(describe("Replay the endpoint's FAILED deliveries made at or after this instant."))
}).annotations({ identifier: "ReplayFailedDeliveries" })
export type ReplayFailedDeliveries = typeof ReplayFailedDeliveries.Type

export const ReplayQueued = Schema.Struct({
  queued: Count.annotations(describe("How many deliveries were queued again."))
}).annotations({ identifier: "ReplayQueued" })
export type ReplayQueued = typeof ReplayQueued.Type

export const WebhookEndpointPath = Schema.Struct({ id: WebhookEndpointId })
export const WebhookDeliveryPath = Schema.Struct({ id: WebhookDeliveryId })

/** The body of a test delivery (POST /v1/webhook-endpoints/{id}/test): an event-like record outside the feed. */
export const WebhookPing = Schema.Struct({
  id: Schema.String,
  type: Schema.Literal(PING_TYPE),
  occurredAt: Timestamp,
  organizationId: Schema.String,
  data: Schema.Struct({ endpointId: Schema.String })
}).annotations({ identifier: "WebhookPing" })
export type WebhookPing = typeof WebhookPing.Type

/** Stable codes of the webhook acts' refusals. */
export const WebhookCode = {
  endpointDisabled: "WEBHOOK_ENDPOINT_DISABLED"
} as const
