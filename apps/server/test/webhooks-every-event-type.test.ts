import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import type { ImportResult, OrgFixtureInput } from "@tks/core/org-import/schema"
import { forkliftAnswers, learning } from "@tks/core/testing/learning"
import { EventType } from "@tks/domain/events"
import { narrationMonthlyAllowance } from "@tks/domain/narration"
import { verifiedWith, webhookReceiver, type WebhookReceiver } from "../../../packages/adapters/test/support/webhook-receiver.js"
import { post } from "./support/assigners.js"
import { feedCaughtUp } from "./support/journal.js"
import { submitAnswers } from "./support/learners.js"
import { startMonthAt, synthesize } from "./support/narrators.js"
import { preparedRecipients, sendQuiz } from "./support/pop-quizzes.js"
import { walkPages } from "./support/responses.js"
import { importFixture, raw, TestServerLive } from "./support/server.js"

/**
 * Every type of the event catalogue (@tks/domain/events), end to end
 * (docs/webhooks.md): a loopback receiver subscribed to every type gets each
 * event once, verified by the Standard Webhooks reference verifier, with the
 * body the feed lists for it; acts done one at a time (each one's deliveries
 * waited for) arrive in the order of their feed positions. Each event is
 * caused by the product's own acts: HTTP calls and the job workers.
 *
 * Processing is queued only by a publication (and by an organization's
 * import, which comes before any endpoint of it can), and ends in one
 * outcome, `content.processed` or `content.processing_failed`: the two
 * outcomes take two publications, so `content.published` is the one type
 * received twice.
 */

/**
 * learning's warehouse (@tks/core/testing/learning: Max's READY quiz and his
 * one lesson obligation, Lea's and Cody's obligations) on the pro plan, with
 * the people who act here: the owner (who registers the endpoint), an admin
 * holding every scope, a member whose documents go to review, and Ann, new
 * to the Forklift lesson.
 */
const warehouse: OrgFixtureInput = {
  ...learning,
  organization: { name: "Warehouse Webhooks", plan: "pro" },
  // Without the lesson that has no content, whose quiz the workers would try (and fail) to prepare all along.
  lessons: learning.lessons?.filter((lesson) => lesson.key !== "empty"),
  enrollments: learning.enrollments?.filter((enrollment) => enrollment.lesson !== "empty"),
  people: [
    ...(learning.people ?? []),
    { key: "owner", name: "Olga Owner", email: "olga@warehouse.test", role: "owner", tokenScopes: [] },
    {
      key: "admin",
      name: "Arno Admin",
      email: "arno@warehouse.test",
      role: "admin",
      tokenScopes: ["content:write", "training:assign", "narration:synthesize"]
    },
    { key: "member", name: "Mia Member", email: "mia@warehouse.test", role: "viewer", tokenScopes: ["content:write"] },
    { key: "ann", name: "Ann Newcomer", email: "ann@warehouse.test", role: "viewer" }
  ]
}

const known = (record: Readonly<Record<string, string>>, key: string) => {
  const value = record[key]
  if (value === undefined) throw new Error(`the warehouse fixture has no ${key}`)
  return value
}

/** One act's events as the receiver got them: where they start in its list, and the types the act causes. */
interface Turn {
  readonly act: string
  readonly from: number
  readonly emits: ReadonlyArray<EventType>
}

/** Polls the receiver (bounded) until it has `count` deliveries, then checks it has exactly that many. */
const waitFor = (receiver: WebhookReceiver, count: number, act: string) =>
  Effect.gen(function*() {
    for (let tries = 0; tries < 600 && receiver.received.length < count; tries++) yield* Effect.sleep(Duration.millis(50))
    expect(receiver.received.length, `deliveries received after ${act}`).toBe(count)
  })

/** Does acts one at a time: each waits until the receiver has its events' deliveries before the next starts. */
const inTurn = (receiver: WebhookReceiver) => {
  const turns: Array<Turn> = []
  const act = <A, E, R>(name: string, emits: ReadonlyArray<EventType>, run: Effect.Effect<A, E, R>) =>
    Effect.gen(function*() {
      const from = receiver.received.length
      const result = yield* run
      yield* waitFor(receiver, from + emits.length, name)
      turns.push({ act: name, from, emits })
      return result
    })
  return { act, turns }
}

const ok = (response: { readonly status: number; readonly text: string }, status: number, what: string) =>
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBe(status)

/** The endpoint's delivery log once none of it is PENDING (bounded). */
const settledLog = (token: string, endpointId: string) =>
  Effect.gen(function*() {
    for (let tries = 0;; tries++) {
      const page = yield* raw("GET", `/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`, { token })
      ok(page, 200, "the delivery log")
      const rows = page.json.data as Array<any>
      if (tries >= 200 || rows.every((row) => row.status !== "PENDING")) return rows
      yield* Effect.sleep(Duration.millis(50))
    }
  })

/** The acts, each causing the event types it names (and, on the workers' time, what follows from it). */
const everyAct = (imported: ImportResult, act: ReturnType<typeof inTurn>["act"]) =>
  Effect.gen(function*() {
    const token = (key: string) => known(imported.tokens, key)
    const person = (key: string) => known(imported.ids.people, key)
    const obligation = (key: string) => known(imported.ids.obligations, key)
    const admin = token("admin")
    const document = (title: string, content: string, by = admin) =>
      post("/v1/documents", by, { title, content, visibility: "everyone" }).pipe(Effect.map((response) => {
        ok(response, 201, `adding ${title}`)
        return response.json
      }))

    yield* act(
      "a document an admin adds, then its processing",
      ["content.published", "content.processed"],
      document("Dock rules", "# Dock rules\n\n- Chocks: wheels must be chocked before loading.\n")
    )
    yield* act(
      "a document an admin adds, then its processing failing for good",
      ["content.published", "content.processing_failed"],
      document("Broken rules", "# Broken rules\n\nExtraction fails: the model is unavailable\n")
    )
    const submitted = yield* act(
      "a member's document, bound for review",
      ["review_request.submitted"],
      document("Yard map", "The yard has three gates.", token("member"))
    )
    expect(submitted.mode).toBe("review")
    yield* act(
      "a reviewer rejecting it",
      ["review_request.decided"],
      Effect.map(post(`/v1/content-review-requests/${submitted.reviewRequestId}/reject`, admin, { note: "We have one" }), (response) =>
        ok(response, 200, "rejecting"))
    )
    yield* act(
      "assigning the Forklift lesson to Ann",
      ["enrollment.created", "obligation.created"],
      Effect.map(
        post(`/v1/lessons/${known(imported.ids.lessons, "forklift")}/assignments`, admin, { audience: "users", userIds: [person("ann")] }),
        (response) => ok(response, 200, "assigning")
      )
    )
    yield* act(
      "moving Lea's lesson obligation's due date",
      ["obligation.due_date_changed"],
      Effect.map(post(`/v1/obligations/${obligation("leaLesson")}/due-date`, admin, { dueDate: "2031-02-02T00:00:00.000Z" }), (response) =>
        ok(response, 200, "moving the due date"))
    )
    yield* act(
      "waiving Lea's Parking obligation",
      ["obligation.waived"],
      Effect.map(post(`/v1/obligations/${obligation("leaParking")}/waive`, admin, { reason: "No parking on this site" }), (response) =>
        ok(response, 200, "waiving"))
    )
    yield* act(
      "cancelling Cody's inspection obligation",
      ["obligation.cancelled"],
      Effect.map(post(`/v1/obligations/${obligation("codyInspection")}/cancel`, admin, { reason: "Moved off the floor" }), (response) =>
        ok(response, 200, "cancelling"))
    )
    yield* act(
      "Max passing the Forklift quiz, which completes his one obligation",
      ["enrollment.completed", "obligation.completed"],
      Effect.map(submitAnswers(known(imported.ids.enrollments, "maxForklift"), token("max"), { answers: forkliftAnswers(5) }), (response) =>
        ok(response, 201, "Max's quiz"))
    )
    const quiz = yield* act(
      "a pop quiz sent to Sid",
      ["pop_quiz.sent"],
      Effect.map(
        sendQuiz(admin, {
          contentId: known(imported.ids.content, "forkliftGuide"),
          audience: "users",
          userIds: [person("sid")],
          dueDate: "2099-06-01T00:00:00Z"
        }),
        (response) => {
          ok(response, 201, "sending the pop quiz")
          return response.json.id as string
        }
      )
    )
    // Sid can start once the workers have written the questions (no event of its own).
    yield* preparedRecipients(quiz)
    yield* act(
      "Sid starting and answering the pop quiz",
      ["pop_quiz.completed"],
      Effect.gen(function*() {
        ok(yield* post(`/v1/me/pop-quizzes/${quiz}/start`, token("sid"), {}), 200, "starting the pop quiz")
        ok(yield* post(`/v1/me/pop-quizzes/${quiz}/answers`, token("sid"), { answers: [{ number: 1, answer: "12" }] }), 200, "answering")
      })
    )
    // A month's allowance of narration is too much text for a test: the month starts nine characters short of it, as
    // the narration journal test starts it (narration-journal.test.ts); the narration that fills it is a real call.
    yield* startMonthAt(imported.organizationId, narrationMonthlyAllowance - 9)
    yield* act(
      "the narration that fills the month's allowance",
      ["narration.allowance_exhausted"],
      Effect.map(synthesize(admin, { text: "Last one." }), (response) => ok(response, 200, "narrating"))
    )
  })

layer(TestServerLive, { excludeTestServices: true })("every event type delivered to a webhook endpoint", (it) => {
  describe("an endpoint subscribed to every event type", () => {
    it.scoped(
      "receives each event once, verified by the reference verifier, acts in feed order, each body the feed's event",
      () =>
        Effect.gen(function*() {
          const imported = yield* importFixture(warehouse)
          const owner = known(imported.tokens, "owner")
          const receiver = yield* webhookReceiver()
          const created = yield* raw("POST", "/v1/webhook-endpoints", {
            token: owner,
            body: JSON.stringify({ url: receiver.url(), eventTypes: EventType.literals, description: "every event" })
          })
          ok(created, 201, "creating the endpoint")
          const secret: string = created.json.secret

          const { act, turns } = inTurn(receiver)
          yield* everyAct(imported, act)

          const bodies = receiver.received.map((request) => verifiedWith(secret, request) as any)
          for (const [i, request] of receiver.received.entries()) expect(request.headers["webhook-id"]).toBe(bodies[i].id)
          expect(new Set(receiver.ids()).size).toBe(receiver.received.length)

          // Each act's events, in whichever order they came; each act's after the one before it in the feed.
          let before = 0
          for (const turn of turns) {
            const mine = bodies.slice(turn.from, turn.from + turn.emits.length)
            expect(mine.map((body) => body.type).sort(), turn.act).toEqual([...turn.emits].sort())
            const positions = mine.map((body) => body.position as number)
            expect(Math.min(...positions), turn.act).toBeGreaterThan(before)
            // Processing follows on the workers' time, after the publication in the feed.
            if (turn.emits[0] === "content.published") {
              const [published, outcome] = turn.emits.map((type) => mine.find((body) => body.type === type)!.position)
              expect(outcome, turn.act).toBeGreaterThan(published)
            }
            before = Math.max(...positions)
          }

          // Every type of the catalogue, once each, but content.published: once for each processing outcome.
          const counts: Record<string, number> = {}
          for (const body of bodies) counts[body.type] = (counts[body.type] ?? 0) + 1
          expect(counts).toEqual({ ...Object.fromEntries(EventType.literals.map((type) => [type, 1])), "content.published": 2 })

          // The feed holds exactly the events delivered, field for field.
          yield* feedCaughtUp(owner, imported.organizationId)
          const feed = (yield* walkPages("/v1/events", owner, 100)).rows
          expect([...bodies].sort((a, b) => a.position - b.position)).toEqual(feed)

          // The endpoint's log: one delivery per event, each succeeded at its first attempt (the last may still be
          // being marked when its request arrived).
          const log = yield* settledLog(owner, created.json.id)
          expect(log.map((row) => [row.eventId, row.status, row.attempts]).sort()).toEqual(
            bodies.map((body) => [body.id, "SUCCEEDED", 1]).sort()
          )
        }),
      90_000
    )
  })
})
