import { Clock, Config, ConfigError, Duration, Effect, Either, Layer } from "effect"
import { Agent, type Dispatcher } from "undici"
import { RESPONSE_EXCERPT_BYTES } from "@tks/domain/webhooks"
import { toStorable } from "@tks/domain/text"
import { flagSetting, Production } from "../config.js"
import { isPublicAddress } from "../page-fetch/address-policy.js"
import { guardedConnector, type Resolver, systemResolver } from "../page-fetch/connector.js"
import { whyFailed } from "../page-fetch/download.js"
import { type WebhookAnswer, type WebhookPost, WebhookSender, WebhookUnreachable } from "./port.js"
import { signatureHeaders } from "./signature.js"
import { targetRefusal } from "./target-policy.js"

export interface WebhookSenderOptions {
  /** Loopback and private addresses, and plain http, allowed (tests, local development; never in production). */
  readonly allowPrivateTargets: boolean
  /** Host name resolution (default: the system resolver). */
  readonly resolver?: Resolver
  /** One attempt, connecting and the answer's headers included (default 10 s). */
  readonly timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 10_000

const USER_AGENT = "TrainingKnowledgeService-Webhooks/1.0"

/**
 * At most RESPONSE_EXCERPT_BYTES of the body, read within `ms`; the rest is
 * never downloaded. A body that breaks off or stalls keeps what arrived.
 */
const excerptOf = async (body: Dispatcher.ResponseData["body"], ms: number): Promise<string> => {
  body.on("error", () => {})
  const chunks: Array<Buffer> = []
  let size = 0
  const timer = setTimeout(() => body.destroy(), Math.max(ms, 0))
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer)
      size += (chunk as Buffer).length
      if (size >= RESPONSE_EXCERPT_BYTES) break
    }
  } catch {
    // What arrived before the break is the excerpt.
  } finally {
    clearTimeout(timer)
    body.destroy()
  }
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)
  // A character cut at the 1 KB mark becomes U+FFFD; the log is text PostgreSQL stores.
  return toStorable(new TextDecoder("utf-8").decode(bytes))
}

/**
 * The webhook sender over its own connection pool, closed with the scope:
 * undici, with every connection going through the page fetcher's SSRF guard
 * (public unicast addresses only, a name resolved once per connection and
 * each of its addresses vetted) unless private targets are allowed. A
 * redirect is an answer like any other: never followed.
 */
export const makeWebhookSender = (options: WebhookSenderOptions) =>
  Effect.gen(function*() {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const resolver = options.resolver ?? systemResolver
    // Allowed private targets still resolve through `resolver` once per connection (tests give one that never reaches real DNS).
    const connect = options.allowPrivateTargets
      ? guardedConnector({ resolver, isAllowedAddress: () => true, connectTimeoutMs: timeoutMs, checkNames: false })
      : guardedConnector({ resolver, isAllowedAddress: isPublicAddress, connectTimeoutMs: timeoutMs })
    const agent = yield* Effect.acquireRelease(
      Effect.sync(() => new Agent({ connect, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })),
      (agent) => Effect.tryPromise(() => agent.destroy()).pipe(Effect.ignore)
    )

    const refusal = (url: URL) => targetRefusal(url, options.allowPrivateTargets)

    const post = (request: WebhookPost): Effect.Effect<WebhookAnswer, WebhookUnreachable> =>
      Effect.gen(function*() {
        const url = new URL(request.url)
        const refused = refusal(url)
        if (refused !== undefined) return yield* new WebhookUnreachable({ reason: refused, latencyMs: 0 })
        const at = new Date(yield* Clock.currentTimeMillis)
        const started = performance.now()
        const elapsed = () => Math.round(performance.now() - started)
        const response = yield* Effect.tryPromise({
          try: (signal) =>
            agent.request({
              origin: url.origin,
              path: `${url.pathname}${url.search}`,
              method: "POST",
              headers: {
                ...signatureHeaders(request.messageId, at, request.body, request.secrets),
                "content-type": "application/json",
                "user-agent": USER_AGENT
              },
              body: request.body,
              signal
            }),
          catch: (error) => new WebhookUnreachable({ reason: `${url.host}: ${whyFailed(error)}`, latencyMs: elapsed() })
        }).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(timeoutMs),
            onTimeout: () => new WebhookUnreachable({ reason: `${url.host}: no answer within ${timeoutMs} ms`, latencyMs: elapsed() })
          })
        )
        const latencyMs = elapsed()
        const body = yield* Effect.promise(() => excerptOf(response.body, timeoutMs - latencyMs))
        return { status: response.statusCode, body, latencyMs }
      })

    return WebhookSender.of({ refusal, post })
  })

/** A WebhookSender layer with explicit options (tests, tools). */
export const layerWebhookSender = (options: WebhookSenderOptions) => Layer.scoped(WebhookSender, makeWebhookSender(options))

/**
 * WEBHOOK_ALLOW_PRIVATE_TARGETS (default false): deliver to loopback and
 * private addresses, and over plain http, for tests and local development.
 * Refused with NODE_ENV=production, so a production service reaches only
 * public https receivers whatever its environment says.
 */
export const WebhookConfig = Config.all({ production: Production, allowPrivateTargets: flagSetting("WEBHOOK_ALLOW_PRIVATE_TARGETS", false) }).pipe(
  Config.mapOrFail(({ allowPrivateTargets, production }) =>
    production && allowPrivateTargets
      ? Either.left(
        ConfigError.InvalidData(
          [],
          "WEBHOOK_ALLOW_PRIVATE_TARGETS=true is refused with NODE_ENV=production: webhooks are delivered only to public https addresses there"
        )
      )
      : Either.right({ allowPrivateTargets })
  )
)

/** The service's WebhookSender: the system resolver, private targets as WEBHOOK_ALLOW_PRIVATE_TARGETS says (said at start when allowed). */
export const WebhookSenderLive = Layer.scoped(
  WebhookSender,
  Effect.gen(function*() {
    const { allowPrivateTargets } = yield* WebhookConfig
    if (allowPrivateTargets) {
      yield* Effect.logWarning("webhooks: loopback and private addresses and plain http allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS; for tests and development)")
    }
    return yield* makeWebhookSender({ allowPrivateTargets, resolver: systemResolver })
  })
)
