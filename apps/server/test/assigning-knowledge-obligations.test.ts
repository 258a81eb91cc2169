import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, execute, post, query, storedObligation } from "./support/assigners.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * POST /v1/knowledge-obligations (docs/domain.md, Company roles,
 * duties and tiers; Obligations): the duty check (directly, through a team, through a
 * role at a tier the qualifier reaches; a duty on a space or topic reaching
 * what is under it), merging into an existing obligation, days counted from
 * the date the person took on the duty and needsReview when that changes.
 *
 * The assigners graph: Floor > Forklift (Pre-use check > Brakes), Loading,
 * an archived Old topic. Driver at MIN_TIER senior on Forklift (ann senior,
 * bob junior, since 2026-01-01); team Night on Pre-use check (cat); dee
 * directly on the Floor space; Packer on Loading (held by nobody).
 */
const setup = assignersOnce
const PATH = "/v1/knowledge-obligations"
const day = 86_400_000

const obligationCount = query((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM obligations WHERE item_type <> 'lesson'`).pipe(
  Effect.map((rows) => rows[0]!.n)
)

layer(TestServerLive, { excludeTestServices: true })("POST /v1/knowledge-obligations", (it) => {
  describe("field rules and callers", () => {
    it.effect("userId, itemType (topic or item) and itemId required; dueDays 1 to 3650; reason up to 2000 characters", () =>
      Effect.gen(function*() {
        const { token, topicId, userId } = yield* setup
        const valid = { userId: userId("ann"), itemType: "topic", itemId: topicId("forklift") }
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ ...valid, userId: undefined }, "userId"],
          [{ ...valid, itemType: "lesson" }, "itemType"],
          [{ ...valid, itemId: undefined }, "itemId"],
          [{ ...valid, dueDays: 0 }, "dueDays"],
          [{ ...valid, dueDays: 3651 }, "dueDays"],
          [{ ...valid, reason: "x".repeat(2001) }, "reason"]
        ]
        for (const [body, field] of cases) {
          const response = yield* post(PATH, token("admin"), body)
          expectError(response, 400, "VALIDATION_ERROR", field)
          expect(response.json.issues[0].path).toBe(field)
        }
        expect(yield* obligationCount).toBe(0)
      }))

    it.effect("bad tokens 401; no scope 403; another organization's admin: this organization's people are unknown (400)", () =>
      Effect.gen(function*() {
        const { badTokens, token, topicId, userId } = yield* setup
        const body = { userId: userId("ann"), itemType: "topic", itemId: topicId("forklift") }
        for (const [name, bad] of Object.entries(badTokens)) expectError(yield* post(PATH, bad, body), 401, "UNAUTHORIZED", name)
        for (const caller of ["viewer", "external", "unscoped"]) expectError(yield* post(PATH, token(caller), body), 403, "FORBIDDEN", caller)
        expectError(yield* post(PATH, token("otto"), body), 400, "UNKNOWN_USER", "otto")
        expect(yield* obligationCount).toBe(0)
      }))
  })

  describe("the duty check", () => {
    it.effect("a duty held through a role at a tier the qualifier reaches, on the topic or above an item: the obligation (2.7)", () =>
      Effect.gen(function*() {
        const { itemId, token, topicId, userId } = yield* setup
        const response = yield* post(PATH, token("admin"), { userId: userId("ann"), itemType: "topic", itemId: topicId("forklift"), dueDays: 30 })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({
          id: expect.stringMatching(/^obl_/),
          userId: userId("ann"),
          itemType: "topic",
          itemId: topicId("forklift"),
          status: "active",
          required: true,
          // 30 days from when ann took on the Driver role.
          dueDate: "2026-01-31T00:00:00.000Z",
          dueDateOverridden: false,
          needsReview: false
        })
        expect(yield* storedObligation(response.json.id)).toMatchObject({ kind: "knowledge" })
        const item = yield* post(PATH, token("admin"), { userId: userId("ann"), itemType: "item", itemId: itemId("brakes") })
        expect(item.status).toBe(200)
        expect(item.json).toMatchObject({ itemType: "item", itemId: itemId("brakes"), dueDate: null })
      }))

    it.effect("a duty held through a team reaches the item and its child items, not the topic above", () =>
      Effect.gen(function*() {
        const { itemId, token, topicId, userId } = yield* setup
        expect((yield* post(PATH, token("admin"), { userId: userId("cat"), itemType: "item", itemId: itemId("preuse") })).status).toBe(200)
        expect((yield* post(PATH, token("admin"), { userId: userId("cat"), itemType: "item", itemId: itemId("brakes") })).status).toBe(200)
        expectError(yield* post(PATH, token("admin"), { userId: userId("cat"), itemType: "topic", itemId: topicId("forklift") }), 400, "NO_DUTY")
      }))

    it.effect("a duty held directly on a space reaches its topics and items", () =>
      Effect.gen(function*() {
        const { freshToken, itemId, topicId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        expect((yield* post(PATH, admin, { userId: userId("dee"), itemType: "topic", itemId: topicId("loading") })).status).toBe(200)
        expect((yield* post(PATH, admin, { userId: userId("dee"), itemType: "item", itemId: itemId("brakes") })).status).toBe(200)
      }))

    it.effect("no duty: below the tier the qualifier asks, a role held by nobody, no role at all: 400 and nothing written", () =>
      Effect.gen(function*() {
        const { freshToken, topicId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const before = yield* obligationCount
        for (const [person, topic] of [["bob", "forklift"], ["ann", "loading"], ["eve", "forklift"]] as const) {
          const response = yield* post(PATH, admin, { userId: userId(person), itemType: "topic", itemId: topicId(topic) })
          expectError(response, 400, "NO_DUTY", `${person} ${topic}`)
        }
        // A role ended: bob no longer holds Driver at all.
        yield* execute((sql) => sql`UPDATE role_members SET ended_at = now() WHERE user_id = ${userId("bob")}`)
        expectError(yield* post(PATH, admin, { userId: userId("bob"), itemType: "topic", itemId: topicId("forklift") }), 400, "NO_DUTY")
        expect(yield* obligationCount).toBe(before)
      }))

    it.effect("an unknown topic or item, one out of the live graph, or a topic named as an item: 400", () =>
      Effect.gen(function*() {
        const { freshToken, topicId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const before = yield* obligationCount
        for (const [itemType, id] of [["topic", "top_made_up"], ["item", "itm_made_up"], ["topic", topicId("oldTopic")], ["item", topicId("forklift")]] as const) {
          expectError(yield* post(PATH, admin, { userId: userId("ann"), itemType, itemId: id }), 400, "UNKNOWN_ITEM", `${itemType} ${id}`)
        }
        expect(yield* obligationCount).toBe(before)
      }))

    it.effect("an unknown person or one who has left: 400", () =>
      Effect.gen(function*() {
        const { freshToken, topicId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        expectError(yield* post(PATH, admin, { userId: "usr_made_up", itemType: "topic", itemId: topicId("forklift") }), 400, "UNKNOWN_USER")
        expectError(yield* post(PATH, admin, { userId: userId("gone"), itemType: "topic", itemId: topicId("forklift") }), 400, "PERSON_DEACTIVATED")
      }))
  })

  describe("merging and the basis of the due date", () => {
    it.effect("owing it already merges into that obligation: same id, the earlier date wins, the reason kept", () =>
      Effect.gen(function*() {
        const { freshToken, itemId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const body = { userId: userId("cat"), itemType: "item", itemId: itemId("preuse") }
        const first = yield* post(PATH, admin, { ...body, dueDays: 400, reason: "New kit" })
        const second = yield* post(PATH, admin, { ...body, dueDays: 500 })
        const third = yield* post(PATH, admin, { ...body, dueDays: 300, reason: "Audit" })
        expect(new Set([first.json.id, second.json.id, third.json.id]).size).toBe(1)
        expect(second.json.dueDate).toBe(first.json.dueDate)
        expect(Date.parse(third.json.dueDate) - Date.parse(first.json.dueDate)).toBe(-100 * day)
        expect(yield* storedObligation(first.json.id)).toMatchObject({ reason: "Audit" })
      }))

    it.effect("when the person took on the duty again, a not-overridden date is flagged needsReview and kept", () =>
      Effect.gen(function*() {
        const { freshToken, topicId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const body = { userId: userId("ann"), itemType: "topic", itemId: topicId("forklift"), dueDays: 30 }
        const first = yield* post(PATH, admin, body)
        expect(first.json.dueDate).toBe("2026-01-31T00:00:00.000Z")
        // Ann left the Driver role and took it on again on March 1st.
        yield* execute((sql) => sql`UPDATE role_members SET ended_at = '2026-02-01T00:00:00Z' WHERE user_id = ${userId("ann")}`)
        yield* execute((sql) => sql`
          INSERT INTO role_members (org_id, role_id, user_id, tier_id, started_at)
          SELECT org_id, role_id, user_id, tier_id, '2026-03-01T00:00:00Z' FROM role_members WHERE user_id = ${userId("ann")}`)
        const again = yield* post(PATH, admin, body)
        expect(again.json).toMatchObject({ id: first.json.id, needsReview: true, dueDate: "2026-01-31T00:00:00.000Z" })
      }))
  })

  describe("reach", () => {
    it.effect("a team admin: people on their teams (ann on Ops), not others (dee: 403, nothing written); a demoted one: only themself", () =>
      Effect.gen(function*() {
        const { itemId, token, topicId, userId } = yield* setup
        expect((yield* post(PATH, token("teamAdmin"), { userId: userId("ann"), itemType: "item", itemId: itemId("preuse") })).status).toBe(200)
        const before = yield* obligationCount
        expectError(yield* post(PATH, token("teamAdmin"), { userId: userId("dee"), itemType: "topic", itemId: topicId("loading") }), 403, "FORBIDDEN")
        yield* execute((sql) => sql`UPDATE team_members SET role = 'team-viewer' WHERE user_id = ${userId("demoted")}`)
        expectError(yield* post(PATH, token("demoted"), { userId: userId("eve"), itemType: "topic", itemId: topicId("forklift") }), 403, "FORBIDDEN")
        // Themself: reach passes; the demoted team admin holds no duty on it.
        expectError(yield* post(PATH, token("demoted"), { userId: userId("demoted"), itemType: "topic", itemId: topicId("forklift") }), 400, "NO_DUTY")
        expect(yield* obligationCount).toBe(before)
      }))
  })
})
