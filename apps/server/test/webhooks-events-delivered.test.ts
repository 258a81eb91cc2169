import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { verifiedWith, webhookReceiver, type WebhookReceiver } from "../../../packages/adapters/test/support/webhook-receiver.js"
import { assignersOnce, post, query } from "./support/assigners.js"
import { feedCaughtUp } from "./support/journal.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * The whole path, from an act to a receiver (docs/webhooks.md): each act's
 * events reach an endpoint subscribed to their types, once each, signed so
 * that the Standard Webhooks reference verifier accepts them, with the body
 * the feed lists for the same event; acts done one at a time arrive in the
 * order of their feed positions; a type the endpoint does not subscribe to
 * is not sent.
 */
const setup = assignersOnce

const waitFor = (receiver: WebhookReceiver, count: number) =>
  Effect.gen(function*() {
    for (let tries = 0; tries < 400 && receiver.received.length < count; tries++) yield* Effect.sleep(Duration.millis(50))
    expect(receiver.received.length, "deliveries received").toBe(count)
  })

layer(TestServerLive, { excludeTestServices: true })("events delivered to a webhook endpoint", (it) => {
  describe("an endpoint subscribed to the obligation and enrollment events", () => {
    it.scoped("receives each event of each act once, verified by the reference verifier, in feed order, with the feed's body", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const receiver = yield* webhookReceiver()
        const eventTypes = ["enrollment.created", "obligation.created", "obligation.waived", "obligation.due_date_changed"]
        const created = yield* raw("POST", "/v1/webhook-endpoints", {
          token: token("owner"),
          body: JSON.stringify({ url: receiver.url(), eventTypes, description: "end to end" })
        })
        expect(created.status, created.text).toBe(201)
        const secret: string = created.json.secret

        // One act at a time, each waited for, so their deliveries cannot overtake one another.
        const lesson = lessonId("open15")
        expect((yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), { audience: "users", userIds: [userId("ann")] })).status)
          .toBe(200)
        yield* waitFor(receiver, 2)
        const [row] = yield* query((sql) =>
          sql<{ id: string }>`SELECT id FROM obligations WHERE item_id = ${lesson} AND user_id = ${userId("ann")} AND status = 'active'`
        )
        const obligation = row!.id
        expect((yield* post(`/v1/obligations/${obligation}/due-date`, yield* freshToken("admin"), { dueDate: "2032-02-02T00:00:00.000Z" })).status)
          .toBe(200)
        yield* waitFor(receiver, 3)
        // Not subscribed: cancelling after waiving is refused, so waive; a pop quiz or content event would not be sent either.
        expect((yield* post(`/v1/obligations/${obligation}/waive`, yield* freshToken("admin"), { reason: "done elsewhere" })).status).toBe(200)
        yield* waitFor(receiver, 4)

        const bodies = receiver.received.map((request) => verifiedWith(secret, request) as any)
        // The two events of one act may arrive in either order (ordering is not promised); the acts' follow theirs.
        expect(bodies.slice(0, 2).map((body) => body.type).sort()).toEqual(["enrollment.created", "obligation.created"])
        expect(bodies.slice(2).map((body) => body.type)).toEqual(["obligation.due_date_changed", "obligation.waived"])
        const positions = bodies.map((body) => body.position)
        expect(positions.slice(2)).toEqual([...positions.slice(2)].sort((a, b) => a - b))
        expect(Math.min(positions[2], positions[3])).toBeGreaterThan(Math.max(positions[0], positions[1]))
        expect(new Set(receiver.ids()).size).toBe(4)
        for (const [i, request] of receiver.received.entries()) expect(request.headers["webhook-id"]).toBe(bodies[i].id)

        // The body is the feed's event, field for field.
        yield* feedCaughtUp(token("owner"), (yield* setup).orgId)
        const feed = (yield* raw("GET", "/v1/events?limit=100", { token: token("owner") })).json.data as Array<any>
        for (const body of bodies) expect(feed.find((event) => event.id === body.id)).toEqual(body)

        // A wrong secret does not verify.
        expect(() => verifiedWith("whsec_" + Buffer.from("not the secret at all!!").toString("base64"), receiver.received[0]!)).toThrow()
      }))
  })
})
