import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Redacted } from "effect"
import type { DeliveryFailed } from "@tks/adapters/delivery"
import { type OutgoingText, SmsSender } from "@tks/adapters/sms/port"
import { twilioLayer, type TwilioSettings } from "@tks/adapters/sms/twilio"
import { closedPort } from "./support/loopback-server.js"
import { json, type RecordedRequest, type ScriptedReply, scriptedServer } from "./support/scripted-server.js"

const accountSid = "AC0123456789abcdef0123456789abcdef"
const authToken = "twilio-token-5f1e"

const text: OutgoingText = { id: "ntf_sms00000000000000001", to: "+15550100001", body: "New training: Forklift safety. Due 1 December 2026." }

const settingsFor = (baseUrl: string, overrides: Partial<TwilioSettings> = {}): TwilioSettings => ({
  baseUrl: new URL(baseUrl),
  accountSid,
  authToken: Redacted.make(authToken),
  from: "+15550109999",
  timeout: Duration.seconds(5),
  ...overrides
})

const created = json(201, { sid: "SM1f0e2d3c4b5a69788796a5b4c3d2e1f0", status: "queued" })

const sendAgainst = (script: (request: RecordedRequest) => ScriptedReply, overrides: Partial<TwilioSettings> = {}) =>
  Effect.gen(function*() {
    const server = yield* scriptedServer(script)
    const exit = yield* Effect.flatMap(SmsSender, (sms) => sms.send(text)).pipe(
      Effect.provide(twilioLayer(settingsFor(server.baseUrl, overrides))),
      Effect.exit
    )
    return { exit, requests: server.requests }
  })

const failureOf = <A>(exit: Exit.Exit<A, DeliveryFailed>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : Exit.isSuccess(exit) ? "succeeded" : String(exit.cause)

// scopedLive: a loopback fake of the Twilio API and real deadlines.
describe("text messages through Twilio's Messages API (against a loopback fake)", () => {
  it.scopedLive("POST to the account's Messages.json with form fields To, From, Body, basic auth and the Idempotency-Key; the SID is the provider's id", () =>
    Effect.gen(function*() {
      const { exit, requests } = yield* sendAgainst(() => created)
      expect(exit).toEqual(Exit.succeed({ providerMessageId: "SM1f0e2d3c4b5a69788796a5b4c3d2e1f0" }))
      expect(requests).toHaveLength(1)
      const request = requests[0]!
      expect(request.method).toBe("POST")
      expect(request.url).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`)
      expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded")
      expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`)
      expect(request.headers["idempotency-key"]).toBe("ntf_sms00000000000000001")
      expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ To: "+15550100001", From: "+15550109999", Body: text.body })
    }))

  it.scopedLive("a Messaging Service SID as SMS_FROM is sent as MessagingServiceSid; a base URL with a path keeps it", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer(() => created)
      yield* Effect.flatMap(SmsSender, (sms) => sms.send(text)).pipe(
        Effect.provide(twilioLayer(settingsFor(`${server.baseUrl}/proxy/`, { from: "MG00000000000000000000000000000001" })))
      )
      expect(server.requests[0]!.url).toBe(`/proxy/2010-04-01/Accounts/${accountSid}/Messages.json`)
      const form = Object.fromEntries(new URLSearchParams(server.requests[0]!.body))
      expect(form).toEqual({ To: "+15550100001", MessagingServiceSid: "MG00000000000000000000000000000001", Body: text.body })
    }))

  it.scopedLive("400 with code 21211 (an invalid 'To' number) is permanent, and the reason says so", () =>
    Effect.gen(function*() {
      const { exit } = yield* sendAgainst(() =>
        json(400, { code: 21211, message: "The 'To' number +1555 is not a valid phone number.", status: 400 }))
      const failure = failureOf(exit)
      expect(failure).toMatchObject({ _tag: "DeliveryFailed", retryable: false })
      expect((failure as DeliveryFailed).reason).toBe("Twilio HTTP 400 (code 21211: The 'To' number +1555 is not a valid phone number.)")
    }))

  it.scopedLive("429, 500, 503 and 401 are retryable; 403 and 404 are not", () =>
    Effect.gen(function*() {
      for (const status of [429, 500, 503, 401]) {
        const { exit } = yield* sendAgainst(() => json(status, { code: 20000 + status, message: "try later" }))
        expect(failureOf(exit), `HTTP ${status}`).toMatchObject({ retryable: true })
      }
      for (const status of [403, 404]) {
        const { exit } = yield* sendAgainst(() => json(status, { code: 20000 + status, message: "no" }))
        expect(failureOf(exit), `HTTP ${status}`).toMatchObject({ retryable: false })
      }
    }))

  it.scopedLive("no connection, and no answer within TWILIO_TIMEOUT_MS, are retryable", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const refused = yield* Effect.flatMap(SmsSender, (sms) => sms.send(text)).pipe(
        Effect.provide(twilioLayer(settingsFor(`http://127.0.0.1:${port}`))),
        Effect.exit
      )
      expect(failureOf(refused)).toMatchObject({ retryable: true })
      const { exit } = yield* sendAgainst(() => ({ ...created, delayMs: 3_000 }), { timeout: Duration.millis(300) })
      expect(failureOf(exit)).toMatchObject({ retryable: true })
    }))

  it.scopedLive("the deadline holds even when the send cannot be interrupted (delivery sends uninterruptibly)", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer(() => ({ ...created, delayMs: 3_000 }))
      const exit = yield* Effect.flatMap(SmsSender, (sms) => Effect.uninterruptible(sms.send(text))).pipe(
        Effect.provide(twilioLayer(settingsFor(server.baseUrl, { timeout: Duration.millis(300) }))),
        Effect.exit
      )
      expect(failureOf(exit)).toMatchObject({ _tag: "DeliveryFailed", retryable: true })
    }))
})
