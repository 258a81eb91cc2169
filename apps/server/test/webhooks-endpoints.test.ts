import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { verifiedWith, webhookReceiver } from "../../../packages/adapters/test/support/webhook-receiver.js"
import { acmeCallerMatrix } from "./support/callers.js"
import { expectError, walkPages } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * The webhook endpoints and their delivery log over HTTP (docs/webhooks.md):
 * organization admins only, another organization's records absent, every
 * act audited without its secret; a test ping reaches a loopback receiver
 * (the test server allows private targets, as WEBHOOK_ALLOW_PRIVATE_TARGETS
 * does) signed so the Standard Webhooks verifier accepts it.
 */

const json = (method: string, path: string, token: string | undefined, body?: unknown) =>
  raw(method, path, { token, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

const callers = Effect.map(acmeCallerMatrix, (matrix) => matrix.tokens)

/** An endpoint made by the owner for `url` (default: nowhere that answers), as the create answer has it. */
const created = (url = "http://127.0.0.1:9/hooks", eventTypes: ReadonlyArray<string> = ["enrollment.created"]) =>
  Effect.gen(function*() {
    const tokens = yield* callers
    const response = yield* json("POST", "/v1/webhook-endpoints", tokens.owner, { url, eventTypes })
    expect(response.status, response.text).toBe(201)
    return response.json
  })

const auditOf = (targetId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ action: string; actor_type: string; changes: Record<string, unknown> | null; target_ids: ReadonlyArray<string> }>`
      SELECT action, actor_type, changes, target_ids FROM audit_events WHERE ${targetId} = ANY(target_ids) ORDER BY occurred_at, id`).pipe(
      Effect.orDie
    )

/** Polls the endpoint's log until `check` holds for its newest delivery; answers that delivery. */
const newestDeliveryWhen = (endpointId: string, check: (delivery: any) => boolean) =>
  Effect.gen(function*() {
    const tokens = yield* callers
    for (let tries = 0; tries < 300; tries++) {
      const response = yield* json("GET", `/v1/webhook-endpoints/${endpointId}/deliveries`, tokens.admin)
      const newest = response.json.data[0]
      if (newest !== undefined && check(newest)) return newest
      yield* Effect.sleep(Duration.millis(50))
    }
    return yield* Effect.dieMessage(`the delivery log of ${endpointId} never showed what was expected`)
  })

layer(TestServerLive, { excludeTestServices: true })("webhook endpoints over HTTP", (it) => {
  describe("callers", () => {
    it.effect("bad tokens 401; viewer, external and team admin 403 on every endpoint; another organization's admin 404 for this one's endpoint and delivery", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const endpoint = yield* created()
        const ping = yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/test`, tokens.owner)
        expect(ping.status).toBe(202)
        const calls: ReadonlyArray<readonly [string, string, unknown?]> = [
          ["POST", "/v1/webhook-endpoints", { url: "http://127.0.0.1:9/x", eventTypes: ["enrollment.created"] }],
          ["GET", "/v1/webhook-endpoints"],
          ["GET", `/v1/webhook-endpoints/${endpoint.id}`],
          ["PATCH", `/v1/webhook-endpoints/${endpoint.id}`, { description: "taken over" }],
          ["DELETE", `/v1/webhook-endpoints/${endpoint.id}`],
          ["POST", `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`],
          ["POST", `/v1/webhook-endpoints/${endpoint.id}/test`],
          ["GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries`],
          ["POST", `/v1/webhook-deliveries/${ping.json.id}/replay`],
          ["POST", `/v1/webhook-endpoints/${endpoint.id}/replay`, { since: "2026-01-01T00:00:00Z" }]
        ]
        for (const [method, path, body] of calls) {
          const label = `${method} ${path}`
          for (const bad of ["none", "invalid", "expired", "revoked"] as const) expectError(yield* json(method, path, tokens[bad], body), 401, "UNAUTHORIZED", label)
          for (const caller of ["viewer", "external", "teamAdmin"] as const) {
            expectError(yield* json(method, path, tokens[caller], body), 403, "FORBIDDEN", `${label} ${caller}`)
          }
          const other = yield* json(method, path, tokens.otherOrgAdmin, body)
          if (path.includes(endpoint.id) || path.includes(ping.json.id)) expectError(other, 404, "NOT_FOUND", `${label} other`)
          else expect(other.status, label).toBeLessThan(300)
        }
        // Nothing the refused callers asked for happened.
        const after = yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner)
        expect(after.json).toMatchObject({ description: null, disabled: false })
      }))
  })

  describe("the endpoints", () => {
    it.effect("create: 201 with the endpoint and its whsec_ secret, shown only there; the audit row names what was set, never the secret", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const response = yield* json("POST", "/v1/webhook-endpoints", tokens.admin, {
          url: "http://127.0.0.1:9/Hooks/../in?source=tks",
          eventTypes: ["enrollment.completed", "obligation.created", "enrollment.completed"],
          description: "Our HR system"
        })
        expect(response.status).toBe(201)
        const endpoint = response.json
        expect(endpoint).toEqual({
          id: expect.stringMatching(/^ep_[0-9a-hjkmnp-tv-z]{20}$/),
          url: "http://127.0.0.1:9/in?source=tks",
          description: "Our HR system",
          eventTypes: ["enrollment.completed", "obligation.created"],
          disabled: false,
          disabledAt: null,
          disabledReason: null,
          failingSince: null,
          previousSecretExpiresAt: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)
        })
        expect(Buffer.from(endpoint.secret.slice("whsec_".length), "base64")).toHaveLength(32)
        const read = yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner)
        expect(read.json).toEqual(Object.fromEntries(Object.entries(endpoint).filter(([key]) => key !== "secret")))
        const [audit] = yield* auditOf(endpoint.id)
        expect(audit).toMatchObject({
          action: "webhook_endpoint.created",
          actor_type: "person",
          changes: {
            url: { new: endpoint.url },
            eventTypes: { new: ["enrollment.completed", "obligation.created"] },
            description: { new: "Our HR system" }
          }
        })
        expect(JSON.stringify(yield* auditOf(endpoint.id))).not.toContain(endpoint.secret.slice(6))
      }))

    it.effect("create: bad input is 400 VALIDATION_ERROR naming the field, and nothing is made", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const before = (yield* json("GET", "/v1/webhook-endpoints?limit=100", tokens.owner)).json.data.length
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ url: "http://127.0.0.1:9/x", eventTypes: ["enrollment.teleported"] }, "eventTypes.0"],
          [{ url: "http://127.0.0.1:9/x", eventTypes: [] }, "eventTypes"],
          [{ url: "http://127.0.0.1:9/x", eventTypes: ["ping"] }, "eventTypes.0"],
          [{ eventTypes: ["enrollment.created"] }, "url"],
          [{ url: "ftp://files.example.com/x", eventTypes: ["enrollment.created"] }, "url"],
          [{ url: "http://user:pw@127.0.0.1:9/x", eventTypes: ["enrollment.created"] }, "url"],
          [{ url: "http://127.0.0.1:9/x#part", eventTypes: ["enrollment.created"] }, "url"],
          [{ url: "http://127.0.0.1:9/x", eventTypes: ["enrollment.created"], description: "x".repeat(501) }, "description"]
        ]
        for (const [body, path] of cases) {
          const response = yield* json("POST", "/v1/webhook-endpoints", tokens.owner, body)
          expectError(response, 400, "VALIDATION_ERROR", JSON.stringify(body).slice(0, 80))
          expect(response.json.issues.map((issue: { path: string }) => issue.path), JSON.stringify(body).slice(0, 80)).toContain(path)
        }
        expect((yield* json("GET", "/v1/webhook-endpoints?limit=100", tokens.owner)).json.data.length).toBe(before)
      }))

    it.effect("list: the organization's endpoints newest first, in keyset pages; another organization's are not there", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const made = [yield* created(), yield* created(), yield* created()]
        const mine = yield* walkPages("/v1/webhook-endpoints", tokens.billingAdmin, 2)
        const ids = mine.rows.map((row) => row.id)
        expect(ids.filter((id) => made.some((endpoint) => endpoint.id === id))).toEqual(made.map((endpoint) => endpoint.id).reverse())
        for (const row of mine.rows) expect(row).not.toHaveProperty("secret")
        const theirs = yield* json("GET", "/v1/webhook-endpoints", tokens.otherOrgAdmin)
        expect(theirs.json.data.filter((row: { id: string }) => ids.includes(row.id))).toEqual([])
        // A cursor is bound to its listing: another organization's admin cannot use it.
        const page = yield* json("GET", "/v1/webhook-endpoints?limit=1", tokens.owner)
        expectError(yield* json("GET", `/v1/webhook-endpoints?cursor=${encodeURIComponent(page.json.nextCursor)}`, tokens.otherOrgAdmin), 400, "INVALID_CURSOR")
      }))

    it.effect("patch: changes what is given (audited old and new); disabling and enabling again clears why and since when it failed", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const endpoint = yield* created()
        yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql`UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour' WHERE id = ${endpoint.id}`).pipe(Effect.orDie)
        const changed = yield* json("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner, {
          eventTypes: ["pop_quiz.sent"],
          description: "Quizzes only",
          disabled: true
        })
        expect(changed.status).toBe(200)
        expect(changed.json).toMatchObject({
          url: endpoint.url,
          eventTypes: ["pop_quiz.sent"],
          description: "Quizzes only",
          disabled: true,
          disabledAt: expect.any(String),
          disabledReason: "disabled by an organization admin"
        })
        expectError(yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/test`, tokens.owner), 400, "WEBHOOK_ENDPOINT_DISABLED")
        const enabled = yield* json("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner, { disabled: false, description: null })
        expect(enabled.json).toMatchObject({ disabled: false, disabledAt: null, disabledReason: null, failingSince: null, description: null })
        // Nothing to change: nothing done, nothing audited.
        const same = yield* json("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner, { eventTypes: ["pop_quiz.sent"] })
        expect(same.json.updatedAt).toBe(enabled.json.updatedAt)
        const updates = (yield* auditOf(endpoint.id)).filter((row) => row.action === "webhook_endpoint.updated")
        expect(updates.map((row) => row.changes)).toEqual([
          {
            eventTypes: { old: ["enrollment.created"], new: ["pop_quiz.sent"] },
            description: { old: null, new: "Quizzes only" },
            disabled: { old: false, new: true }
          },
          { description: { old: "Quizzes only", new: null }, disabled: { old: true, new: false } }
        ])
        expectError(yield* json("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner, { eventTypes: [] }), 400, "VALIDATION_ERROR")
        expectError(yield* json("PATCH", "/v1/webhook-endpoints/ep_made_up", tokens.owner, {}), 404, "NOT_FOUND")
      }))

    it.effect("delete: 204, then the endpoint and its deliveries are gone (404); audited with what it was", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const endpoint = yield* created()
        const ping = yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/test`, tokens.owner)
        const deleted = yield* json("DELETE", `/v1/webhook-endpoints/${endpoint.id}`, tokens.admin)
        expect(deleted.status).toBe(204)
        expect(deleted.text).toBe("")
        expectError(yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner), 404, "NOT_FOUND")
        expectError(yield* json("DELETE", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner), 404, "NOT_FOUND")
        expectError(yield* json("POST", `/v1/webhook-deliveries/${ping.json.id}/replay`, tokens.owner), 404, "NOT_FOUND")
        const [left] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${endpoint.id}`).pipe(Effect.orDie)
        expect(left!.n).toBe(0)
        const audit = (yield* auditOf(endpoint.id)).find((row) => row.action === "webhook_endpoint.deleted")
        expect(audit!.changes).toEqual({ url: { old: endpoint.url }, eventTypes: { old: ["enrollment.created"] }, description: { old: null } })
      }))

    it.effect("rotate-secret: a new secret, shown once; the previous one still signs for 24 hours; audited without either", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const endpoint = yield* created()
        const rotated = yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, tokens.owner)
        expect(rotated.status).toBe(200)
        expect(rotated.json.secret).toMatch(/^whsec_/)
        expect(rotated.json.secret).not.toBe(endpoint.secret)
        const hours = (Date.parse(rotated.json.previousSecretExpiresAt) - Date.parse(rotated.json.updatedAt)) / 3_600_000
        expect(hours).toBeCloseTo(24, 3)
        const audit = (yield* auditOf(endpoint.id)).find((row) => row.action === "webhook_endpoint.secret_rotated")
        expect(audit).toBeDefined()
        for (const secret of [endpoint.secret, rotated.json.secret]) expect(JSON.stringify(audit)).not.toContain(secret.slice(6))
      }))
  })

  describe("deliveries", () => {
    it.scoped("a test ping reaches the receiver signed for the Standard Webhooks verifier, and the log shows it delivered", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const receiver = yield* webhookReceiver()
        receiver.answerWith(() => ({ status: 200, body: "pong" }))
        const endpoint = yield* created(receiver.url())
        const queued = yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/test`, tokens.owner)
        expect(queued.status).toBe(202)
        expect(queued.json).toMatchObject({ endpointId: endpoint.id, eventType: "ping", eventPosition: null, status: "PENDING", attempts: 0 })
        const delivered = yield* newestDeliveryWhen(endpoint.id, (delivery) => delivery.status === "SUCCEEDED")
        expect(delivered).toMatchObject({ id: queued.json.id, attempts: 1, responseStatus: 200, responseBody: "pong", error: null, nextAttemptAt: null })
        const [request] = receiver.received
        expect(verifiedWith(endpoint.secret, request!)).toEqual({
          id: queued.json.eventId,
          type: "ping",
          occurredAt: expect.any(String),
          organizationId: (yield* acmeCallerMatrix).result.organizationId,
          data: { endpointId: endpoint.id }
        })
        expect(request!.headers["webhook-id"]).toBe(queued.json.eventId)
        const tested = (yield* auditOf(endpoint.id)).find((row) => row.action === "webhook_endpoint.tested")
        expect(tested!.target_ids).toEqual([endpoint.id, queued.json.id])
      }))

    it.scoped("a receiver answering 500 three times: the log shows each attempt and its code; replay tries again at once under the same webhook-id, until it succeeds", () =>
      Effect.gen(function*() {
        const tokens = yield* callers
        const receiver = yield* webhookReceiver()
        receiver.answerWith((n) => (n < 3 ? { status: 500, body: `down ${n + 1}` } : { status: 204 }))
        const endpoint = yield* created(receiver.url())
        const ping = (yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/test`, tokens.owner)).json
        // The first retry comes on its own (the test server's base wait is 50 ms); the next ones are hours away (scaled), so replay.
        const second = yield* newestDeliveryWhen(endpoint.id, (delivery) => delivery.attempts === 2)
        expect(second).toMatchObject({ status: "PENDING", responseStatus: 500, responseBody: "down 2", error: "answered 500", nextAttemptAt: expect.any(String) })
        expect((yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner)).json.failingSince).not.toBeNull()
        const replayed = yield* json("POST", `/v1/webhook-deliveries/${ping.id}/replay`, tokens.owner)
        expect(replayed.status).toBe(202)
        expect(replayed.json).toMatchObject({ id: ping.id, status: "PENDING" })
        const third = yield* newestDeliveryWhen(endpoint.id, (delivery) => delivery.attempts === 3)
        expect(third).toMatchObject({ status: "PENDING", responseStatus: 500, responseBody: "down 3" })
        yield* json("POST", `/v1/webhook-deliveries/${ping.id}/replay`, tokens.owner)
        const done = yield* newestDeliveryWhen(endpoint.id, (delivery) => delivery.status === "SUCCEEDED")
        expect(done).toMatchObject({ attempts: 4, responseStatus: 204, error: null })
        expect(receiver.ids()).toEqual([ping.eventId, ping.eventId, ping.eventId, ping.eventId])
        expect((yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}`, tokens.owner)).json.failingSince).toBeNull()
        // A delivered one can be replayed too: the receiver gets it again, under the same id.
        const again = yield* json("POST", `/v1/webhook-deliveries/${ping.id}/replay`, tokens.admin)
        expect(again.json.status).toBe("PENDING")
        yield* newestDeliveryWhen(endpoint.id, (delivery) => delivery.attempts === 5 && delivery.status === "SUCCEEDED")
        expect(receiver.ids()).toHaveLength(5)
        const replays = (yield* auditOf(ping.id)).filter((row) => row.action === "webhook_delivery.replayed")
        expect(replays.map((row) => row.changes)).toEqual([null, null, { status: { old: "SUCCEEDED", new: "PENDING" } }])
      }))

    it.scoped("replay since: every FAILED delivery of the endpoint since then is queued again and counted, in one call; the log filters by status", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const tokens = yield* callers
        const receiver = yield* webhookReceiver()
        const endpoint = yield* created(receiver.url())
        const pings = []
        for (let i = 0; i < 3; i++) pings.push((yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/test`, tokens.owner)).json)
        yield* newestDeliveryWhen(endpoint.id, () => receiver.received.length === 3)
        // Two of them failed long ago, one before `since`: set through the database, as days of retries would leave them.
        yield* sql`UPDATE webhook_deliveries SET status = 'FAILED', delivered_at = NULL, error = 'given up', created_at = now() - interval '2 days'
          WHERE id = ${pings[0].id}`.pipe(Effect.orDie)
        yield* sql`UPDATE webhook_deliveries SET status = 'FAILED', delivered_at = NULL, error = 'given up', created_at = now() - interval '1 hour'
          WHERE id = ${pings[1].id}`.pipe(Effect.orDie)
        const failed = yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries?status=FAILED`, tokens.owner)
        expect(failed.json.data.map((delivery: { id: string }) => delivery.id)).toEqual([pings[1].id, pings[0].id])
        const since = new Date(Date.now() - 86_400_000).toISOString()
        const queued = yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/replay`, tokens.owner, { since })
        expect(queued.status).toBe(202)
        expect(queued.json).toEqual({ queued: 1 })
        yield* newestDeliveryWhen(endpoint.id, () => receiver.received.length === 4)
        expect(receiver.ids()[3]).toBe(pings[1].eventId)
        const stillFailed = yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries?status=FAILED`, tokens.owner)
        expect(stillFailed.json.data.map((delivery: { id: string }) => delivery.id)).toEqual([pings[0].id])
        expectError(yield* json("POST", `/v1/webhook-endpoints/${endpoint.id}/replay`, tokens.owner, { since: "yesterday" }), 400, "VALIDATION_ERROR")
        expectError(yield* json("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries?status=LOST`, tokens.owner), 400, "VALIDATION_ERROR")
      }))
  })
})
