import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Config, Duration, Effect, Layer, Redacted } from "effect"
import { httpUrl, positiveInteger } from "../config.js"
import { type Delivered, type DeliveryFailed, permanent, retryable } from "../delivery.js"
import { type OutgoingText, SmsSender } from "./port.js"

/**
 * Text messages through Twilio's Messages API:
 * `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form fields
 * To, From (or MessagingServiceSid) and Body, basic auth AccountSid:AuthToken.
 * The notification's id goes in an `Idempotency-Key` header, the same on
 * every attempt, so the provider (or a proxy in front of it) can recognise a
 * repeat. The base is configurable, so tests talk to a loopback fake.
 */
export interface TwilioSettings {
  readonly baseUrl: URL
  readonly accountSid: string
  readonly authToken: Redacted.Redacted
  /** A sending number (+15550100000), or a Messaging Service SID (MG…). */
  readonly from: string
  /** For one message: connecting, the answer and its body. */
  readonly timeout: Duration.Duration
}

export const TwilioConfig: Config.Config<TwilioSettings> = Config.all({
  baseUrl: httpUrl("TWILIO_BASE_URL", "https://api.twilio.com"),
  accountSid: Config.nonEmptyString("TWILIO_ACCOUNT_SID"),
  authToken: Config.redacted("TWILIO_AUTH_TOKEN"),
  from: Config.nonEmptyString("SMS_FROM"),
  timeout: positiveInteger("TWILIO_TIMEOUT_MS", 15_000).pipe(Config.map(Duration.millis))
})

/** The endpoint for an account; a base with a path (a proxy's prefix) keeps it. */
const endpointOf = (settings: TwilioSettings): string =>
  `${settings.baseUrl.href.replace(/\/+$/, "")}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`

/**
 * fetch with the deadline on the socket itself. Delivery runs the send
 * uninterruptibly (a shutdown must not cut it between "sent" and "recorded
 * as sent"), so a deadline that works by interrupting the fiber would never
 * fire; an AbortSignal does.
 */
const fetchWithin = (timeout: Duration.Duration): typeof globalThis.fetch => (input, init) => {
  const deadline = AbortSignal.timeout(Duration.toMillis(timeout))
  return globalThis.fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline })
}

const errorOf = (body: unknown): string => {
  if (typeof body !== "object" || body === null) return ""
  const { code, message } = body as { code?: unknown; message?: unknown }
  return [typeof code === "number" || typeof code === "string" ? `code ${code}` : "", typeof message === "string" ? message : ""]
    .filter((part) => part !== "").join(": ")
}

/**
 * Twilio's answer as a receipt or a failure. Worth another attempt: 429 (too
 * many requests), 408 and 425, every 5xx, and 401 (the credentials are the
 * operator's to fix, the message is fine). Any other 4xx refuses this
 * message for good (400 with code 21211 is an invalid 'To' number; 21610 a
 * recipient who unsubscribed).
 */
const twilioAnswer = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<Delivered, DeliveryFailed> =>
  response.json.pipe(
    Effect.orElseSucceed((): unknown => null),
    Effect.flatMap((body) => {
      if (response.status >= 200 && response.status < 300) {
        const sid = typeof body === "object" && body !== null ? (body as { sid?: unknown }).sid : undefined
        return Effect.succeed<Delivered>({ providerMessageId: typeof sid === "string" ? sid : null })
      }
      const detail = errorOf(body)
      const reason = `Twilio HTTP ${response.status}${detail === "" ? "" : ` (${detail})`}`
      const again = response.status === 429 || response.status === 408 || response.status === 425 ||
        response.status === 401 || response.status >= 500
      return Effect.fail(again ? retryable(reason) : permanent(reason))
    })
  )

const makeTwilio = (settings: TwilioSettings) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const endpoint = endpointOf(settings)
    const sender = settings.from.startsWith("MG") ? { MessagingServiceSid: settings.from } : { From: settings.from }
    const fetch = fetchWithin(settings.timeout)

    const send = (text: OutgoingText): Effect.Effect<Delivered, DeliveryFailed> =>
      client.execute(
        HttpClientRequest.post(endpoint, {
          headers: { "idempotency-key": text.id, accept: "application/json" }
        }).pipe(
          HttpClientRequest.basicAuth(settings.accountSid, Redacted.value(settings.authToken)),
          HttpClientRequest.bodyUrlParams({ To: text.to, ...sender, Body: text.body })
        )
      ).pipe(
        Effect.mapError((error) => retryable(`Twilio request failed: ${error.message}`)),
        Effect.flatMap(twilioAnswer),
        Effect.provideService(FetchHttpClient.Fetch, fetch),
        Effect.withSpan("SmsSender.twilio", { attributes: { "notification.id": text.id } })
      )

    return SmsSender.of({ provider: "twilio", send })
  })

/** Twilio with explicit settings, over the platform's fetch client. */
export const twilioLayer = (settings: TwilioSettings): Layer.Layer<SmsSender> =>
  Layer.effect(SmsSender, makeTwilio(settings)).pipe(Layer.provide(FetchHttpClient.layer))
