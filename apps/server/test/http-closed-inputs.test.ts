import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, expectRefused, post, query, send } from "./support/assigners.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * Inputs are closed (docs/architecture.md, Errors): a body field or query
 * parameter an endpoint does not declare is 400 VALIDATION_ERROR naming it,
 * at any depth of the body, every one at once, and nothing is done. Known
 * parameters, empty ones included, work as before.
 */
const setup = assignersOnce
const assignments = (lesson: string) => `/v1/lessons/${lesson}/assignments`

const knowledgeObligations = query((sql) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM obligations WHERE item_type <> 'lesson'`
).pipe(Effect.map((rows) => rows[0]!.n))

const issuePaths = (json: { issues: ReadonlyArray<{ path: string }> }) => json.issues.map((issue) => issue.path)

layer(TestServerLive, { excludeTestServices: true })("closed inputs", (it) => {
  describe("an undeclared body field is 400 and nothing is written", () => {
    it.effect("a top-level field a POST does not declare is named, with the fields it does", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const body = { audience: "users", userIds: [userId("ann")], notifyManagers: true }
        const response = yield* expectRefused(lesson, post(assignments(lesson), token("admin"), body), 400, "VALIDATION_ERROR", "extra field")
        expect(response.json).toMatchObject({ _tag: "BadRequest", message: expect.stringContaining("notifyManagers") })
        expect(response.json.issues).toEqual([{ path: "notifyManagers", message: expect.stringContaining("is unexpected") }])
        expect(response.json.issues[0].message).toContain("\"userIds\"")
      }))

    it.effect("a field inside a nested object is named by its path, and only there", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const body = { audience: "users", userIds: [userId("ann")], due: { type: "days", days: 10, hours: 3 } }
        const response = yield* expectRefused(lesson, post(assignments(lesson), token("admin"), body), 400, "VALIDATION_ERROR", "nested field")
        expect(response.json.issues).toEqual([{ path: "due.hours", message: expect.stringContaining("is unexpected") }])
      }))

    it.effect("every undeclared field and every invalid value is listed in one answer", () =>
      Effect.gen(function*() {
        const { token, topicId, userId } = yield* setup
        const body = { userId: userId("ann"), itemType: "topic", itemId: topicId("forklift"), dueDays: 0, note: "x", priority: 1 }
        const response = yield* post("/v1/knowledge-obligations", token("admin"), body)
        expectError(response, 400, "VALIDATION_ERROR")
        expect(issuePaths(response.json).sort()).toEqual(["dueDays", "note", "priority"])
        expect(yield* knowledgeObligations).toBe(0)
      }))

    it.effect("a PUT is held to the same rule", () =>
      Effect.gen(function*() {
        const { lessonId, token } = yield* setup
        const response = yield* send("PUT", `/v1/lessons/${lessonId("open20")}/retraining-policy`, token("admin"), {
          retrainingType: "none",
          retrainingTypo: "recurring"
        })
        expectError(response, 400, "VALIDATION_ERROR")
        expect(issuePaths(response.json)).toEqual(["retrainingTypo"])
      }))

    it.effect("the same body without the extra field is accepted", () =>
      Effect.gen(function*() {
        const { token, topicId, userId } = yield* setup
        const response = yield* post("/v1/knowledge-obligations", token("admin"), {
          userId: userId("ann"),
          itemType: "topic",
          itemId: topicId("forklift")
        })
        expect(response.status).toBe(200)
      }))
  })

  describe("an undeclared query parameter is 400", () => {
    it.effect("a typo of limit on a listing is named, with the parameters the listing takes", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const response = yield* raw("GET", "/v1/members?lmit=5", { token: token("admin") })
        expectError(response, 400, "VALIDATION_ERROR")
        expect(response.json._tag).toBe("BadRequest")
        expect(response.json.message).toContain("lmit")
        expect(response.json.issues).toEqual([{ path: "lmit", message: expect.stringContaining("is unexpected") }])
        expect(response.json.issues[0].message).toContain("\"limit\"")
      }))

    it.effect("several unknown parameters, and a bad value of a known one, are listed together", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const response = yield* raw("GET", "/v1/company-roles?lmit=5&sort=name&limit=abc", { token: token("admin") })
        expectError(response, 400, "VALIDATION_ERROR")
        expect(issuePaths(response.json).sort()).toEqual(["limit", "lmit", "sort"])
      }))

    it.effect("an endpoint that takes no parameters refuses any, each named", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        for (const path of ["/v1/me?verbose=1&lang=", "/v1/me/obligations?limit=5&lang=&cursor=x"]) {
          const response = yield* raw("GET", path, { token: token("admin") })
          expectError(response, 400, "VALIDATION_ERROR", path)
          // cursor and limit are the paging every list takes: on a read that is one page they change nothing, and are not named.
          expect(issuePaths(response.json), path).toEqual(path.includes("limit") ? ["lang"] : ["verbose", "lang"])
          expect(response.json.issues[0].message, path).toContain("takes no query parameters")
        }
      }))

    it.effect("a write that declares no query refuses one before doing anything", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const response = yield* expectRefused(
          lesson,
          post(`${assignments(lesson)}?dryRun=true`, token("admin"), { audience: "users", userIds: [userId("bob")] }),
          400,
          "VALIDATION_ERROR",
          "query on a write"
        )
        expect(issuePaths(response.json)).toEqual(["dryRun"])
      }))

    it.effect("authentication comes first: without a token an unknown parameter is 401, on either kind of endpoint", () =>
      Effect.gen(function*() {
        for (const path of ["/v1/members?lmit=5", "/v1/me?lmit=5"]) expectError(yield* raw("GET", path), 401, "UNAUTHORIZED", path)
      }))
  })

  describe("known parameters work as before", () => {
    it.effect("cursor and limit page a listing; an empty known parameter is read as before", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const first = yield* raw("GET", "/v1/members?limit=1", { token: token("admin") })
        expect(first.status).toBe(200)
        expect(first.json.data).toHaveLength(1)
        const next = yield* raw("GET", `/v1/members?limit=1&cursor=${encodeURIComponent(first.json.nextCursor)}`, { token: token("admin") })
        expect(next.status).toBe(200)
        expect(next.json.data[0].id).not.toBe(first.json.data[0].id)
        const emptyQuery = yield* raw("GET", "/v1/members?query=", { token: token("admin") })
        expect(emptyQuery.status).toBe(200)
        expect(emptyQuery.json.total).toBe(first.json.total)
      }))

    it.effect("an endpoint without parameters answers as before when given none (a bare ? included)", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        for (const path of ["/v1/me", "/v1/me?", "/v1/me/obligations"]) {
          expect((yield* raw("GET", path, { token: token("admin") })).status, path).toBe(200)
        }
      }))
  })
})
