import { Context, type Effect, Schema } from "effect"

/**
 * The webhook port: one signed POST of an event to an endpoint's address,
 * through the SSRF guard (docs/webhooks.md). What the answer means
 * (delivered, gone, try again) is core's rule; this only reports it.
 */

export interface WebhookPost {
  readonly url: string
  /** The `webhook-id`: the event's id, the same on every attempt and replay. */
  readonly messageId: string
  /** The JSON body, exactly as signed. */
  readonly body: string
  /** The endpoint's secrets (`whsec_…`): each signs the request, so a receiver holding either verifies it. */
  readonly secrets: ReadonlyArray<string>
}

/** Any HTTP answer, 2xx or not (a redirect is an answer, never followed). */
export interface WebhookAnswer {
  readonly status: number
  /** The first 1 KB of the body, as text. */
  readonly body: string
  /** From sending the request to its answer's headers. */
  readonly latencyMs: number
}

/**
 * No answer: the address refused by the guard (not public), a name that
 * does not resolve, a connection refused or reset, no answer in time.
 * `reason` is for the delivery log and the logs.
 */
export class WebhookUnreachable extends Schema.TaggedError<WebhookUnreachable>()("WebhookUnreachable", {
  reason: Schema.String,
  latencyMs: Schema.Number
}) {}

export class WebhookSender extends Context.Tag("@tks/adapters/WebhookSender")<WebhookSender, {
  /**
   * Why `url` may not receive webhooks here, or undefined when it may: asked
   * when an endpoint is made or its address changed. It looks at the
   * address as written (scheme, an IP literal, a private-network name); the
   * addresses a name resolves to are checked at every delivery, since they
   * can change.
   */
  readonly refusal: (url: URL) => string | undefined
  readonly post: (request: WebhookPost) => Effect.Effect<WebhookAnswer, WebhookUnreachable>
}>() {}
