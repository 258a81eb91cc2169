import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { PageParams } from "@tks/domain/page-params"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import {
  CreateWebhookEndpoint,
  ReplayFailedDeliveries,
  ReplayQueued,
  UpdateWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryListParams,
  WebhookDeliveryPath,
  WebhookEndpoint,
  WebhookEndpointPath,
  WebhookEndpointWithSecret
} from "@tks/domain/webhooks"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

// Re-annotating a schema drops its identifier, so it is given again to keep the named component.
const Created = WebhookEndpointWithSecret.annotations(HttpApiSchema.annotations({ status: 201, identifier: "WebhookEndpointWithSecret" }))
const Queued = WebhookDelivery.annotations(HttpApiSchema.annotations({ status: 202, identifier: "WebhookDelivery" }))
const QueuedMany = ReplayQueued.annotations(HttpApiSchema.annotations({ status: 202, identifier: "ReplayQueued" }))

const signing =
  "Every delivery is a POST of the event as `GET /v1/events` lists it, signed as Standard Webhooks says (`webhook-id`, `webhook-timestamp`, `webhook-signature`), so any Standard Webhooks verifier checks it with the endpoint's secret."

const disabledRefusal = "A disabled endpoint is 400 WEBHOOK_ENDPOINT_DISABLED: enable it first."

const urlRule =
  "`url` must be https and name a public host: a private, loopback or link-local address, a private-network name (`localhost`, `.internal`, ...) or plain http is 400 VALIDATION_ERROR naming `url` (allowed only where the service is set up for development). The addresses a name resolves to are checked again at every delivery."

/** An organization's webhook endpoints, their deliveries, and replay (docs/webhooks.md). */
export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/webhook-endpoints")
      .setPayload(CreateWebhookEndpoint)
      .addSuccess(Created)
      .annotate(OpenApi.Summary, "Create a webhook endpoint")
      .annotate(
        OpenApi.Description,
        `Registers an address to receive the organization's events of the types in \`eventTypes\` (each a type of the event catalogue, else 400 VALIDATION_ERROR). ${urlRule} Answers 201 with the endpoint and its signing \`secret\`, shown only here and when rotated. ${signing}`
      )
      .pipe(requires(policies.webhooks.create))
  )
  .add(
    HttpApiEndpoint.get("list", "/webhook-endpoints")
      .setUrlParams(PageParams)
      .addSuccess(Page(WebhookEndpoint))
      .annotate(OpenApi.Summary, "List webhook endpoints")
      .annotate(OpenApi.Description, "The organization's endpoints, newest first, without their secrets.")
      .pipe(requires(policies.webhooks.list))
  )
  .add(
    HttpApiEndpoint.get("get", "/webhook-endpoints/:id")
      .setPath(WebhookEndpointPath)
      .addSuccess(WebhookEndpoint)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a webhook endpoint")
      .annotate(OpenApi.Description, "One endpoint, without its secret. Another organization's endpoint is 404.")
      .pipe(requires(policies.webhooks.get))
  )
  .add(
    HttpApiEndpoint.patch("update", "/webhook-endpoints/:id")
      .setPath(WebhookEndpointPath)
      .setPayload(UpdateWebhookEndpoint)
      .addSuccess(WebhookEndpoint)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Change a webhook endpoint")
      .annotate(
        OpenApi.Description,
        `Changes what is given of \`url\`, \`eventTypes\`, \`description\` (null clears it) and \`disabled\`. Disabling stops deliveries (those pending fail); enabling clears \`disabledReason\` and \`failingSince\`, and deliveries resume with the next event (replay the failed ones with POST /v1/webhook-endpoints/{id}/replay). ${urlRule} Another organization's endpoint is 404.`
      )
      .pipe(requires(policies.webhooks.update))
  )
  .add(
    HttpApiEndpoint.del("remove", "/webhook-endpoints/:id")
      .setPath(WebhookEndpointPath)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Delete a webhook endpoint")
      .annotate(OpenApi.Description, "Deletes the endpoint and its delivery log; nothing more is delivered to it. Answers 204. Another organization's endpoint is 404.")
      .pipe(requires(policies.webhooks.remove))
  )
  .add(
    HttpApiEndpoint.post("rotateSecret", "/webhook-endpoints/:id/rotate-secret")
      .setPath(WebhookEndpointPath)
      .addSuccess(WebhookEndpointWithSecret)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Rotate a webhook endpoint's signing secret")
      .annotate(
        OpenApi.Description,
        "A new `secret`, shown only in this answer. For 24 hours (until `previousSecretExpiresAt`) every delivery is signed with both the new and the previous secret (`webhook-signature` carries both signatures), so the receiver can switch without losing a delivery; a second rotation within them drops the oldest. Another organization's endpoint is 404."
      )
      .pipe(requires(policies.webhooks.rotateSecret))
  )
  .add(
    HttpApiEndpoint.post("test", "/webhook-endpoints/:id/test")
      .setPath(WebhookEndpointPath)
      .addSuccess(Queued)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Send a test delivery")
      .annotate(
        OpenApi.Description,
        `Queues a ping: \`{id, type: "ping", occurredAt, organizationId, data: {endpointId}}\`, signed, retried and logged as any delivery. Answers 202 with the delivery; follow it in the endpoint's deliveries. ${disabledRefusal} Another organization's endpoint is 404.`
      )
      .pipe(requires(policies.webhooks.test))
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/webhook-endpoints/:id/deliveries")
      .setPath(WebhookEndpointPath)
      .setUrlParams(WebhookDeliveryListParams)
      .addSuccess(Page(WebhookDelivery))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "List a webhook endpoint's deliveries")
      .annotate(
        OpenApi.Description,
        "The delivery log, newest first, optionally of one `status`: each delivery's event (id, type, feed position), status, attempts, and its last attempt's HTTP status, time to answer, first 1 KB of the answer's body or error, and when the next attempt is due. Another organization's endpoint is 404."
      )
      .pipe(requires(policies.webhooks.deliveries))
  )
  .add(
    HttpApiEndpoint.post("replayDelivery", "/webhook-deliveries/:id/replay")
      .setPath(WebhookDeliveryPath)
      .addSuccess(Queued)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Replay a webhook delivery")
      .annotate(
        OpenApi.Description,
        `Queues the delivery again now, whatever its status, with the same \`webhook-id\` (a receiver that already has it recognises it). Answers 202 with the delivery, PENDING. ${disabledRefusal} Another organization's delivery is 404.`
      )
      .pipe(requires(policies.webhooks.replay))
  )
  .add(
    HttpApiEndpoint.post("replayFailed", "/webhook-endpoints/:id/replay")
      .setPath(WebhookEndpointPath)
      .setPayload(ReplayFailedDeliveries)
      .addSuccess(QueuedMany)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Replay a webhook endpoint's failed deliveries")
      .annotate(
        OpenApi.Description,
        `Queues again every FAILED delivery of the endpoint made at or after \`since\` (ISO 8601 with a UTC offset), each with its own \`webhook-id\`; answers 202 with how many. ${disabledRefusal} Another organization's endpoint is 404.`
      )
      .pipe(requires(policies.webhooks.replay))
  )
  .middleware(Authentication) {}
