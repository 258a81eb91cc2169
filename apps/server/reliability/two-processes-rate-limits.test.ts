import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { FixtureImporter } from "@tks/core/org-import/importer"
import type { ImportResult } from "@tks/core/org-import/schema"
import { assigners, learnerKeys } from "@tks/core/testing/assigners"
import { contributors } from "@tks/core/testing/contributors"
import { narrators, readerKeys } from "@tks/core/testing/narrators"
import { Caller } from "@tks/domain/caller"
import { OrganizationId, UserId } from "@tks/domain/ids"
import type { Scope } from "@tks/domain/roles"
import { narrationMonthlyAllowance } from "@tks/domain/narration"
import { startMonthAt, usedThisMonth } from "../test/support/narrators.js"
import { SharedDatabaseLive } from "../test/support/shared-database.js"
import { budget } from "./budget.js"
import { type Answer, burst, call, inOneMinute, TwoServers, twoServers } from "./two-processes-servers.js"

/**
 * Every limit and allowance is counted in the database, so two server
 * processes on one database grant exactly what one would (README: quotas
 * and rate limits are counted in Postgres, not in process memory), and
 * acts raced from both happen once. Requests alternate between the two
 * processes and are all sent at once.
 */
const PER_TOKEN = 40
const ROUNDS = budget(1, 10)

const TestLayer = Layer.mergeAll(twoServers({ RATE_LIMIT_PER_MINUTE: String(PER_TOKEN) }), FixtureImporter.Default, Authenticator.Default).pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const imported = new Map<string, ImportResult>()

/** A fixture's organization, imported once per file. */
const organization = (fixture: typeof assigners | typeof contributors | typeof narrators) =>
  Effect.gen(function*() {
    const name = fixture.organization.name
    const known = imported.get(name)
    if (known !== undefined) return known
    const importer = yield* FixtureImporter
    const result = yield* Effect.orDie(importer.importOrganization(fixture))
    imported.set(name, result)
    return result
  })

/** A new token of a person of the organization, so its counts start at nothing. */
const freshToken = (org: ImportResult, person: string, scopes: ReadonlyArray<Scope>) =>
  Effect.flatMap(Authenticator, (authenticator) =>
    authenticator.issue(Caller.system("test"), {
      organizationId: OrganizationId.make(org.organizationId),
      userId: UserId.make(org.ids.people[person]!),
      scopes
    })).pipe(Effect.orDie)

/** How many answers had each status (a server error with its code, to show what went wrong). */
const statuses = (answers: ReadonlyArray<Answer>) => {
  const counted: Record<string, number> = {}
  for (const answer of answers) {
    const key = answer.status >= 500 ? `${answer.status} ${answer.json?.code}` : String(answer.status)
    counted[key] = (counted[key] ?? 0) + 1
  }
  return counted
}

/**
 * Every refusal is the documented 429: the JSON body with `code` and
 * `limit`, a Retry-After within the window, and (on /v1) the RateLimit-*
 * headers.
 */
const expectRefusals = (answers: ReadonlyArray<Answer>, code: string, limit: number, rateLimitHeaders = true) => {
  for (const answer of answers.filter((a) => a.status === 429)) {
    expect(answer.json).toMatchObject({ _tag: "TooManyRequests", code, limit })
    const retryAfter = answer.headers.get("retry-after")
    expect(retryAfter).toMatch(/^[1-9]\d*$/)
    expect(Number(retryAfter)).toBeLessThanOrEqual(60)
    if (rateLimitHeaders) expect(answer.headers.get("ratelimit-remaining")).toBe("0")
  }
}

const mcpCall = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_categories", arguments: {} } }
const mcpHeaders = { accept: "application/json, text/event-stream" }
/** Two /v1 requests, then two /mcp ones, and so on. */
const viaV1 = (i: number) => i % 4 < 2

layer(TestLayer, { excludeTestServices: true, timeout: 300_000 })("limits and races across two server processes", (it) => {
  it.effect(
    "the per-token limit (RATE_LIMIT_PER_MINUTE=40) is exact across both: of 100 requests of one token at once, /v1 and /mcp alike, exactly 40 are answered and 60 are 429 with Retry-After",
    () =>
      Effect.gen(function*() {
        const servers = yield* TwoServers
        const org = yield* organization(assigners)
        const sql = yield* SqlClient.SqlClient
        // Each round a fresh token; the full run interleaves the requests differently many times.
        for (let round = 0; round < ROUNDS; round++) {
          const answers = yield* inOneMinute(Effect.gen(function*() {
            const { id, token } = yield* freshToken(org, "admin", [])
            const answers = yield* burst(100, (i) =>
              viaV1(i)
                ? call(servers.alternate(i), "GET", "/v1/me", token)
                : call(servers.alternate(i), "POST", "/mcp", token, mcpCall, mcpHeaders))
            return { id, answers }
          }))
          expect(statuses(answers.answers), `round ${round + 1}`).toEqual({ 200: PER_TOKEN, 429: 100 - PER_TOKEN })
          expectRefusals(answers.answers.filter((_, i) => viaV1(i)), "RATE_LIMITED", PER_TOKEN)
          // /mcp answers a refusal with Retry-After only.
          expectRefusals(answers.answers.filter((_, i) => !viaV1(i)), "RATE_LIMITED", PER_TOKEN, false)
          // Each granted request told its caller a different count left: they were counted one after another.
          const remaining = answers.answers.filter((a) => a.status === 200 && a.headers.has("ratelimit-remaining"))
            .map((a) => Number(a.headers.get("ratelimit-remaining")))
          expect(new Set(remaining).size).toBe(remaining.length)
          const [counter] = yield* sql<{ hits: ReadonlyArray<number> }>`
            SELECT hits FROM rate_limit_counters WHERE rule = 'requests' AND subject = ${answers.id}`.pipe(Effect.orDie)
          expect(counter?.hits).toEqual([PER_TOKEN])
        }
      })
  )

  it.effect("each per-route limit is exact across both: 20 learning-queue reads, 30 calls of an assigning route, 3 review submissions", () =>
    Effect.gen(function*() {
      const servers = yield* TwoServers
      const org = yield* organization(assigners)
      const writers = yield* organization(contributors)
      const sql = yield* SqlClient.SqlClient
      const reviewsOf = sql<{ n: number }>`SELECT count(*)::int AS n FROM content_review_requests WHERE org_id = ${writers.organizationId}`.pipe(
        Effect.map((rows) => rows[0]!.n),
        Effect.orDie
      )
      const reviewsBefore = yield* reviewsOf
      const { queue, assigning, reviews } = yield* inOneMinute(Effect.gen(function*() {
        const reader = yield* freshToken(org, "ann", [])
        const assigner = yield* freshToken(org, "admin", ["training:assign"])
        const [first, second] = [yield* freshToken(writers, "member01", ["content:write"]), yield* freshToken(writers, "member01", ["content:write"])]
        const document = { title: "For review", content: "Some text.", visibility: "everyone" }
        return yield* Effect.all({
          queue: burst(30, (i) => call(servers.alternate(i), "GET", "/v1/me/learning-queue", reader.token)),
          assigning: burst(36, (i) => call(servers.alternate(i), "POST", "/v1/obligations/obl_made_up/waive", assigner.token, { reason: "r" })),
          // One person, two tokens: the limit is the person's.
          reviews: burst(10, (i) => call(servers.alternate(i), "POST", "/v1/documents", (i % 3 === 0 ? first : second).token, document))
        }, { concurrency: "unbounded" })
      }))
      expect(statuses(queue)).toEqual({ 200: 20, 429: 10 })
      expectRefusals(queue, "RATE_LIMITED", 20)
      // Refused by the act (no such obligation) still counts as a call; past 30 the act is not even looked at.
      expect(statuses(assigning)).toEqual({ 404: 30, 429: 6 })
      expectRefusals(assigning, "RATE_LIMITED", 30)
      expect(statuses(reviews)).toEqual({ 201: 3, 429: 7 })
      expectRefusals(reviews, "REVIEW_SUBMISSION_LIMIT_REACHED", 3)
      expect(yield* reviewsOf).toBe(reviewsBefore + 3)
    }))

  it.effect("the narration allowance is never overspent: 60 requests at once through both, with room for 20, speak exactly 20", () =>
    Effect.gen(function*() {
      const servers = yield* TwoServers
      const org = yield* organization(narrators)
      const text = "Read the safety notes before every shift starts."
      const fits = 20
      yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - fits * text.length - (text.length - 1))
      const before = yield* usedThisMonth(org.organizationId)
      // Three requests for each of 20 readers: far inside each token's own narration limit.
      const answers = yield* burst(60, (i) =>
        call(servers.alternate(i), "POST", "/v1/narration/synthesize", org.tokens[readerKeys[i % readerKeys.length]!]!, { text }))
      expect(statuses(answers)).toEqual({ 200: fits, 429: 60 - fits })
      for (const answer of answers.filter((a) => a.status === 429)) {
        expect(answer.json).toMatchObject({ code: "NARRATION_QUOTA_EXCEEDED" })
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      }
      const used = yield* usedThisMonth(org.organizationId)
      expect(used).toBe(before + fits * text.length)
      expect(used).toBeLessThanOrEqual(narrationMonthlyAllowance)
    }))

  it.effect("50 identical lesson assignments at once through both create one enrollment and one active obligation per person", () =>
    Effect.gen(function*() {
      const servers = yield* TwoServers
      const org = yield* organization(assigners)
      const lesson = org.ids.lessons["open"]!
      const people = learnerKeys.slice(0, 20).map((key) => org.ids.people[key]!)
      // Ten tokens of five requests each: far inside each token's limits.
      const tokens = yield* Effect.all(Array.from({ length: 10 }, () => freshToken(org, "admin", ["training:assign"])))
      const answers = yield* burst(50, (i) =>
        call(servers.alternate(i), "POST", `/v1/lessons/${lesson}/assignments`, tokens[i % tokens.length]!.token, {
          audience: "users",
          userIds: i % 2 === 0 ? people : [...people].reverse()
        }))
      expect(statuses(answers)).toEqual({ 200: 50 })
      const listed = answers.flatMap((answer) => answer.json.assigned.map((row: { userId: string }) => row.userId))
      expect([...listed].sort()).toEqual([...people].sort())
      const sql = yield* SqlClient.SqlClient
      const perPerson = yield* sql<{ user_id: string; enrollments: number; active: number }>`
        SELECT p.user_id,
          (SELECT count(*)::int FROM enrollments e WHERE e.lesson_id = ${lesson} AND e.user_id = p.user_id) AS enrollments,
          (SELECT count(*)::int FROM obligations o WHERE o.item_id = ${lesson} AND o.user_id = p.user_id AND o.status = 'active') AS active
        FROM unnest(${people}::text[]) AS p(user_id) ORDER BY p.user_id`.pipe(Effect.orDie)
      expect(perPerson).toEqual([...people].sort().map((id) => ({ user_id: id, enrollments: 1, active: 1 })))
    }))

  it.effect("50 waives of one obligation at once through both: exactly one waives it, the other 49 are 400 OBLIGATION_STATE", () =>
    Effect.gen(function*() {
      const servers = yield* TwoServers
      const org = yield* organization(assigners)
      const lesson = org.ids.lessons["open2"]!
      const person = org.ids.people["learner30"]!
      const assigner = yield* freshToken(org, "admin", ["training:assign"])
      const assigned = yield* call(servers.a, "POST", `/v1/lessons/${lesson}/assignments`, assigner.token, { audience: "users", userIds: [person] })
      expect(assigned.status).toBe(200)
      const sql = yield* SqlClient.SqlClient
      const [obligation] = yield* sql<{ id: string }>`
        SELECT id FROM obligations WHERE item_id = ${lesson} AND user_id = ${person} AND status = 'active'`.pipe(Effect.orDie)
      const tokens = yield* Effect.all(Array.from({ length: 10 }, () => freshToken(org, "admin", ["training:assign"])))
      const answers = yield* burst(50, (i) =>
        call(servers.alternate(i), "POST", `/v1/obligations/${obligation!.id}/waive`, tokens[i % tokens.length]!.token, { reason: `waiver ${i}` }))
      expect(statuses(answers)).toEqual({ 200: 1, 400: 49 })
      for (const answer of answers.filter((a) => a.status === 400)) expect(answer.json).toMatchObject({ code: "OBLIGATION_STATE" })
      const winner = answers.find((a) => a.status === 200)!
      expect(winner.json).toMatchObject({ id: obligation!.id, status: "waived" })
      const [stored] = yield* sql<{ status: string; end_reason: string }>`
        SELECT status, end_reason FROM obligations WHERE id = ${obligation!.id}`.pipe(Effect.orDie)
      expect(stored).toEqual({ status: "waived", end_reason: winner.json.reason ?? stored!.end_reason })
      // The person is told once per channel, not once per racing waiver.
      const told = yield* sql<{ channel: string; n: number }>`
        SELECT channel, count(*)::int AS n FROM notifications WHERE user_id = ${person} AND kind = 'ObligationWaived' GROUP BY channel`.pipe(Effect.orDie)
      expect(told.length).toBeGreaterThan(0)
      for (const row of told) expect(row.n).toBe(1)
    }))
})
