import { randomUUID } from "node:crypto"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { contributorsOnce, intakeCounts } from "./support/contributors.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, type RawResponse, TestServerWithoutWorkersLive } from "./support/server.js"

/**
 * Idempotency-Key on the writes of /v1 (docs/domain.md, Idempotent writes),
 * through the real server, on POST /v1/documents as the contributors
 * organization's admin (published at once, one content row per act). No job
 * workers: nothing but the requests writes, so rows are as the requests left
 * them.
 */
const setup = contributorsOnce
const PATH = "/v1/documents"
const valid = { title: "Travel policy", content: "# Travel\n\nBook through the portal.", visibility: "everyone" } as const

const keyed = (token: string, key: string, body: unknown, path = PATH) =>
  raw("POST", path, { token, body: typeof body === "string" ? body : JSON.stringify(body), headers: { "idempotency-key": key } })

const newKey = () => `key-${randomUUID()}`

const keptStatus = (key: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ status: number }>`SELECT status FROM idempotency_keys WHERE key = ${key}`).pipe(
    Effect.map((rows) => rows.map((row) => row.status)),
    Effect.orDie
  )

const replayedHeader = (response: RawResponse) => response.headers.get("idempotent-replayed")

/** The body without the request's own id, which every answer carries anew. */
const withoutRequestId = (response: RawResponse) => {
  const { requestId: _, ...rest } = response.json
  return rest
}

const issueToken = (key: string, scopes: ReadonlyArray<"content:write">) =>
  Effect.gen(function*() {
    const { result } = yield* setup
    const authenticator = yield* Authenticator
    return yield* authenticator.issue(Caller.system("test"), {
      organizationId: OrganizationId.make(result.organizationId),
      userId: UserId.make(result.ids.people[key]!),
      scopes
    }).pipe(Effect.orDie)
  })

layer(TestServerWithoutWorkersLive, { excludeTestServices: true })("Idempotency-Key on the writes of /v1", (it) => {
  describe("the same request again", () => {
    it.effect("the same key and request twice: the stored status and body again with Idempotent-Replayed: true, and the act once", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const key = newKey()
        const before = yield* intakeCounts(result.organizationId)
        const first = yield* keyed(token("admin"), key, valid)
        expect(first.status, first.text).toBe(201)
        expect(replayedHeader(first)).toBeNull()
        // The same JSON with its keys in another order and other whitespace is the same request.
        const again = yield* keyed(token("admin"), key, `{ "visibility": "everyone",\n  "content": ${JSON.stringify(valid.content)}, "title": "Travel policy" }`)
        expect(again.status).toBe(201)
        expect(replayedHeader(again)).toBe("true")
        expect(again.text).toBe(first.text)
        expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"))
        expect(again.headers.get("ratelimit-remaining")).not.toBeNull()
        const after = yield* intakeCounts(result.organizationId)
        expect(after.content).toBe(before.content + 1)
        expect(after.jobs).toBe(before.jobs + 1)
        expect(yield* keptStatus(key)).toEqual([201])
      }))

    it.effect("a 400 the act answers (a business rule) is kept: the same request gets it again, replayed, and nothing is done", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const key = newKey()
        const before = yield* intakeCounts(result.organizationId)
        const body = { ...valid, visibility: "teams", teamIds: ["team_made_up"] }
        const refused = yield* keyed(token("admin"), key, body)
        expectError(refused, 400, "UNKNOWN_TEAM")
        expect(replayedHeader(refused)).toBeNull()
        const again = yield* keyed(token("admin"), key, body)
        expectError(again, 400, "UNKNOWN_TEAM")
        expect(replayedHeader(again)).toBe("true")
        expect(withoutRequestId(again)).toEqual(withoutRequestId(refused))
        // Every error body names its own request, a replay's too.
        expect(again.json.requestId).not.toBe(refused.json.requestId)
        expect(yield* keptStatus(key)).toEqual([400])
        expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      }))
  })

  describe("the key with another request", () => {
    it.effect("another body, query or path with the key: 422 IDEMPOTENCY_KEY_REUSED, and nothing is done", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const key = newKey()
        const first = yield* keyed(token("admin"), key, valid)
        expect(first.status).toBe(201)
        const before = yield* intakeCounts(result.organizationId)
        const reuses = [
          yield* keyed(token("admin"), key, { ...valid, title: "Another policy" }),
          yield* keyed(token("admin"), key, valid, `${PATH}?draft=true`),
          yield* keyed(token("admin"), key, { url: "https://handbook.example.test/onboarding", visibility: "everyone" }, `${PATH}/from-url`)
        ]
        for (const reused of reuses) {
          expectError(reused, 422, "IDEMPOTENCY_KEY_REUSED")
          expect(reused.json._tag).toBe("IdempotencyKeyReused")
        }
        expect(yield* intakeCounts(result.organizationId)).toEqual(before)
        expect(yield* keptStatus(key)).toEqual([201])
      }))

    it.effect("the same key from another token (of the same person) is another key: the request runs", () =>
      Effect.gen(function*() {
        const { result, secondToken, token } = yield* setup
        const key = newKey()
        const before = yield* intakeCounts(result.organizationId)
        const first = yield* keyed(token("admin"), key, valid)
        const other = yield* keyed(yield* secondToken("admin"), key, valid)
        expect([first.status, other.status]).toEqual([201, 201])
        expect(replayedHeader(other)).toBeNull()
        expect(other.json.contentId).not.toBe(first.json.contentId)
        expect((yield* intakeCounts(result.organizationId)).content).toBe(before.content + 2)
        expect(yield* keptStatus(key)).toEqual([201, 201])
      }))

    it.effect("20 requests at once with one key: one act; every other answer is the replay or 409 IDEMPOTENCY_KEY_IN_USE", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const key = newKey()
        const before = yield* intakeCounts(result.organizationId)
        const answers = yield* Effect.all(Array.from({ length: 20 }, () => keyed(token("admin"), key, valid)), { concurrency: "unbounded" })
        const ran = answers.filter((answer) => answer.status === 201 && replayedHeader(answer) === null)
        expect(ran.length).toBe(1)
        for (const answer of answers) {
          if (answer === ran[0]) continue
          if (answer.status === 409) {
            expectError(answer, 409, "IDEMPOTENCY_KEY_IN_USE")
          } else {
            expect(answer.status, answer.text).toBe(201)
            expect(replayedHeader(answer)).toBe("true")
            expect(answer.text).toBe(ran[0]!.text)
          }
        }
        expect((yield* intakeCounts(result.organizationId)).content).toBe(before.content + 1)
      }))
  })

  describe("what is not kept", () => {
    it.effect("a key that is not 1 to 255 printable ASCII characters is 400 VALIDATION_ERROR naming the header, and nothing is done", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const before = yield* intakeCounts(result.organizationId)
        for (const bad of ["x".repeat(256), "", "tab\there", "clé"]) {
          const refused = yield* keyed(token("admin"), bad, valid)
          expectError(refused, 400, "VALIDATION_ERROR", JSON.stringify(bad))
          expect(refused.json.issues, JSON.stringify(bad)).toEqual([{ path: "Idempotency-Key", message: expect.stringContaining("printable ASCII") }])
        }
        expect(yield* intakeCounts(result.organizationId)).toEqual(before)
        const longest = yield* keyed(token("admin"), `${newKey()}${"k".repeat(255)}`.slice(0, 255), valid)
        expect(longest.status).toBe(201)
      }))

    it.effect("a 401 is not kept, and a token revoked since gets 401, not the kept answer", () =>
      Effect.gen(function*() {
        const { badTokens, result } = yield* setup
        const key = newKey()
        const refused = yield* keyed(badTokens.invalid!, key, valid)
        expectError(refused, 401, "UNAUTHORIZED")
        expect(yield* keptStatus(key)).toEqual([])

        const issued = yield* issueToken("admin", ["content:write"])
        expect((yield* keyed(issued.token, key, valid)).status).toBe(201)
        const authenticator = yield* Authenticator
        yield* authenticator.revoke(Caller.system("test"), AccessTokenId.make(issued.id)).pipe(Effect.orDie)
        const before = yield* intakeCounts(result.organizationId)
        const afterRevoking = yield* keyed(issued.token, key, valid)
        expectError(afterRevoking, 401, "UNAUTHORIZED")
        expect(replayedHeader(afterRevoking)).toBeNull()
        expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      }))

    it.effect("a key on a read, or on OPTIONS of a write's path, has no effect", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const me = yield* raw("GET", "/v1/me", { token: token("admin"), headers: { "idempotency-key": "" } })
        expect(me.status).toBe(200)
        expect(replayedHeader(me)).toBeNull()
        for (let i = 0; i < 2; i++) {
          const options = yield* raw("OPTIONS", PATH, { token: token("admin"), headers: { "idempotency-key": i === 0 ? "" : "the same key" } })
          expect(options.status).toBe(204)
          expect(options.headers.get("allow")).toContain("POST")
          expect(replayedHeader(options)).toBeNull()
        }
        expect(yield* keptStatus("the same key")).toEqual([])
      }))

    it.effect("narration takes no key: a key, even one that is not a key, changes nothing and nothing is kept", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const key = newKey()
        for (const sent of ["", key, key]) {
          // The admin's token lacks narration:synthesize: refused by the policy, as without a key.
          const refused = yield* raw("POST", "/v1/narration/synthesize", { token: token("admin"), body: JSON.stringify({ text: "Hello" }), headers: { "idempotency-key": sent } })
          expectError(refused, 403, "FORBIDDEN", JSON.stringify(sent))
          expect(replayedHeader(refused)).toBeNull()
        }
        expect(yield* keptStatus(key)).toEqual([])
      }))
  })

  describe("the typed client", () => {
    it.effect("a call derived from the contract needs no key; given one through the client, it is replayed", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const client = yield* clientFor(token("admin"))
        const plain = yield* client.documents.create({ payload: valid })
        expect(plain.mode).toBe("published")
        const key = newKey()
        const withKey = yield* clientFor(token("admin")).pipe(
          Effect.provideService(HttpClient.HttpClient, yield* HttpClient.HttpClient.pipe(
            Effect.map(HttpClient.mapRequest(HttpClientRequest.setHeader("idempotency-key", key)))
          ))
        )
        const first = yield* withKey.documents.create({ payload: valid })
        const again = yield* withKey.documents.create({ payload: valid })
        expect(again.contentId).toBe(first.contentId)
        expect(first.contentId).not.toBe(plain.contentId)
      }))
  })
})
