import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { makeWebhookSender, WebhookConfig } from "../src/webhooks/sender.js"
import type { WebhookPost } from "../src/webhooks/port.js"
import { fakeResolver } from "./support/fake-resolver.js"
import { closedPort } from "./support/loopback-server.js"
import { verifiedWith, webhookReceiver } from "./support/webhook-receiver.js"

/**
 * The webhook sender against a loopback receiver: every request is signed
 * so the Standard Webhooks reference verifier accepts it unchanged, any
 * answer is reported as it came (a redirect included, never followed), and
 * the SSRF guard refuses private targets unless they are allowed.
 */

const secret = () => `whsec_${randomBytes(32).toString("base64")}`

const postTo = (url: string, secrets: ReadonlyArray<string>, body = JSON.stringify({ id: "evt_1", type: "ping" })): WebhookPost => ({
  url,
  messageId: "evt_1",
  body,
  secrets
})

describe("the webhook sender", () => {
  it.scopedLive("a POST carries the body as JSON and the Standard Webhooks headers; the reference verifier accepts it with the secret", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => ({ status: 200, body: "thanks" }))
      const sender = yield* makeWebhookSender({ allowPrivateTargets: true })
      const key = secret()
      const body = JSON.stringify({ id: "evt_1", type: "enrollment.created", data: { note: "é ✓" } })
      const answer = yield* sender.post(postTo(receiver.url("/in?source=tks"), [key], body))
      expect(answer).toMatchObject({ status: 200, body: "thanks" })
      expect(answer.latencyMs).toBeGreaterThanOrEqual(0)
      const [request] = receiver.received
      expect(request!.path).toBe("/in?source=tks")
      expect(request!.body).toBe(body)
      expect(request!.headers).toMatchObject({ "content-type": "application/json", "webhook-id": "evt_1" })
      expect(request!.headers["webhook-timestamp"]).toMatch(/^\d{10}$/)
      expect(verifiedWith(key, request!)).toEqual(JSON.parse(body))
      expect(() => verifiedWith(secret(), request!)).toThrow("No matching signature")
    }))

  it.scopedLive("with two secrets the request carries two signatures, and a receiver holding either one verifies it", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver()
      const sender = yield* makeWebhookSender({ allowPrivateTargets: true })
      const [current, previous] = [secret(), secret()]
      yield* sender.post(postTo(receiver.url(), [current, previous]))
      const [request] = receiver.received
      expect(String(request!.headers["webhook-signature"]).split(" ")).toHaveLength(2)
      for (const key of [current, previous]) expect(verifiedWith(key, request!)).toEqual({ id: "evt_1", type: "ping" })
    }))

  it.scopedLive("any answer is reported with its status and the first 1 KB of its body; a redirect is an answer, not followed", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver()
      const sender = yield* makeWebhookSender({ allowPrivateTargets: true })
      receiver.answerWith(() => ({ status: 500, body: "x".repeat(5_000) }))
      const failed = yield* sender.post(postTo(receiver.url(), [secret()]))
      expect(failed.status).toBe(500)
      expect(failed.body).toBe("x".repeat(1024))
      receiver.answerWith(() => ({ status: 302, headers: { location: receiver.url("/elsewhere") } }))
      const redirected = yield* sender.post(postTo(receiver.url(), [secret()]))
      expect(redirected.status).toBe(302)
      expect(receiver.received.map((request) => request.path)).toEqual(["/hooks", "/hooks"])
    }))

  it.scopedLive("no answer: a refused connection, or none within the timeout, is a failure with its reason", () =>
    Effect.gen(function*() {
      const sender = yield* makeWebhookSender({ allowPrivateTargets: true, timeoutMs: 300 })
      const port = yield* closedPort
      const refused = yield* Effect.flip(sender.post(postTo(`http://127.0.0.1:${port}/hooks`, [secret()])))
      expect(refused.reason).toContain("ECONNREFUSED")
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => "hang")
      const silent = yield* Effect.flip(sender.post(postTo(receiver.url(), [secret()])))
      expect(silent.reason).toMatch(/no answer within 300 ms|Timeout/)
      expect(receiver.received).toHaveLength(1)
    }))
})

describe("the SSRF guard of the webhook sender", () => {
  it.scopedLive("without private targets allowed: plain http, loopback and private literals and private-network names are refused as written", () =>
    Effect.gen(function*() {
      const sender = yield* makeWebhookSender({ allowPrivateTargets: false, resolver: fakeResolver({}).resolver })
      const refusals = [
        "http://hooks.example.com/in",
        "https://127.0.0.1/in",
        "https://10.1.2.3/in",
        "https://[::1]/in",
        "https://169.254.169.254/latest",
        "https://localhost/in",
        "https://hooks.internal/in",
        "https://intranet/in"
      ].map((url) => [url, sender.refusal(new URL(url))] as const)
      for (const [url, reason] of refusals) expect(reason, url).toBeDefined()
      expect(sender.refusal(new URL("https://hooks.example.com/in"))).toBeUndefined()
      expect(sender.refusal(new URL("https://93.184.215.14/in"))).toBeUndefined()
    }))

  it.scopedLive("a public-looking name that resolves to 127.0.0.1 is refused when the connection is made, and nothing reaches the receiver", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver()
      const names = fakeResolver({ "hooks.example.test": ["127.0.0.1"] })
      const sender = yield* makeWebhookSender({ allowPrivateTargets: false, resolver: names.resolver })
      const url = `https://hooks.example.test:${receiver.port}/hooks`
      expect(sender.refusal(new URL(url))).toBeUndefined()
      const failure = yield* Effect.flip(sender.post(postTo(url, [secret()])))
      expect(failure.reason).toContain("hooks.example.test resolves to 127.0.0.1, which is not a public address")
      expect(names.asked).toEqual(["hooks.example.test"])
      expect(receiver.received).toEqual([])
    }))

  it.scopedLive("a target refused as written is not even dialed (a stored address checked again at delivery)", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver()
      const sender = yield* makeWebhookSender({ allowPrivateTargets: false, resolver: fakeResolver({}).resolver })
      const failure = yield* Effect.flip(sender.post(postTo(receiver.url(), [secret()])))
      expect(failure.reason).toBe("webhooks are delivered only to https addresses")
      expect(receiver.received).toEqual([])
    }))

  it("WEBHOOK_ALLOW_PRIVATE_TARGETS=true is refused with NODE_ENV=production, with a sentence saying why", () => {
    const read = (env: Record<string, string>) =>
      Effect.runSync(Effect.either(WebhookConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))
    expect(read({})).toEqual(Either.right({ allowPrivateTargets: false }))
    expect(read({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })).toEqual(Either.right({ allowPrivateTargets: true }))
    expect(read({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false", NODE_ENV: "production" })).toEqual(Either.right({ allowPrivateTargets: false }))
    const refused = read({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", NODE_ENV: "production" })
    expect(Either.isLeft(refused) && String(refused.left)).toContain(
      "WEBHOOK_ALLOW_PRIVATE_TARGETS=true is refused with NODE_ENV=production"
    )
    expect(Either.isLeft(read({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "maybe" }))).toBe(true)
  })
})
