import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { layerWebhookSender } from "@tks/adapters/webhooks/sender"
import { fakeResolver } from "../../../packages/adapters/test/support/fake-resolver.js"
import { TestAdaptersLive, TestMessagingLive } from "./support/adapters.js"
import { acmeCallerMatrix } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { raw, testServerWith } from "./support/server.js"

/**
 * Where WEBHOOK_ALLOW_PRIVATE_TARGETS is off (every production service): an
 * endpoint's address must be https and name a public host, checked when it
 * is given (400 naming `url`), as from-url refuses what it may not fetch.
 * The names it resolves are checked again at delivery (packages/adapters and
 * packages/core test that side).
 */
const StrictSender = layerWebhookSender({ allowPrivateTargets: false, resolver: fakeResolver({}).resolver })

const create = (url: string, token: string) =>
  raw("POST", "/v1/webhook-endpoints", { token, body: JSON.stringify({ url, eventTypes: ["enrollment.created"] }) })

layer(testServerWith(TestAdaptersLive, TestMessagingLive, StrictSender), { excludeTestServices: true })("webhook targets without private targets allowed", (it) => {
  it.effect("a loopback, private, link-local or private-network address, or plain http, is 400 VALIDATION_ERROR naming url, at create and at change", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const refused: ReadonlyArray<readonly [string, string]> = [
        ["https://127.0.0.1/hooks", "127.0.0.1 is not a public address"],
        ["https://[::1]:8443/hooks", "::1 is not a public address"],
        ["https://10.20.30.40/hooks", "10.20.30.40 is not a public address"],
        ["https://169.254.169.254/latest/meta-data", "169.254.169.254 is not a public address"],
        ["https://localhost:3000/hooks", "localhost is a private-network name (.localhost)"],
        ["https://metadata.google.internal/", "metadata.google.internal is a cloud metadata service name"],
        ["https://hooks.corp/in", "hooks.corp is a private-network name (.corp)"],
        ["http://hooks.example.com/in", "webhooks are delivered only to https addresses"]
      ]
      for (const [url, reason] of refused) {
        const response = yield* create(url, tokens.owner)
        expectError(response, 400, "VALIDATION_ERROR", url)
        expect(response.json.issues, url).toEqual([{ path: "url", message: `this address cannot receive webhooks: ${reason}` }])
      }
      const made = yield* create("https://hooks.example.com/in", tokens.owner)
      expect(made.status).toBe(201)
      const changed = yield* raw("PATCH", `/v1/webhook-endpoints/${made.json.id}`, { token: tokens.owner, body: JSON.stringify({ url: "https://192.168.1.10/in" }) })
      expectError(changed, 400, "VALIDATION_ERROR")
      expect(changed.json.issues).toEqual([{ path: "url", message: "this address cannot receive webhooks: 192.168.1.10 is not a public address" }])
      const kept = yield* raw("GET", `/v1/webhook-endpoints/${made.json.id}`, { token: tokens.owner })
      expect(kept.json.url).toBe("https://hooks.example.com/in")
    }))
})
