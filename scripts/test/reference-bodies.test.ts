import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { importFixture, TestServerOnSharedDatabaseWithoutWorkersLive, baseUrl } from "../../apps/server/test/support/server.js"
import { once } from "../../apps/server/test/support/once.js"
import { CaptureLive, captureInto, type Statement } from "../bench/capture.js"
import { Sql } from "../bench/database.js"
import { cursorAfterPage, type HotEndpoint, hotEndpoints } from "../bench/hot-endpoints.js"
import { ReferenceServer, ReferenceServerLive, type SentStatement } from "./support/reference-layer.js"
import { LEARNER, referenceFixture } from "./support/reference-fixture.js"

/**
 * The bench's reference server (scripts/bench/reference) must answer every
 * hot endpoint as our server does, or the side-by-side bench compares unlike
 * work: the same status and body bytes, and the same statements (text and
 * parameters) sent to the database. Both run here on one shared database
 * (embedded by default, TEST_DATABASE_URL's server when set), our server
 * in-process without job workers, so only the requests change the rows.
 */
const TestLive = ReferenceServerLive.pipe(
  Layer.provideMerge(TestServerOnSharedDatabaseWithoutWorkersLive),
  Layer.provide(CaptureLive)
)

interface Answer {
  readonly status: number
  readonly text: string
  readonly statements: ReadonlyArray<string>
}

/** Each statement as text and parameters, in one order (a counted first page runs its two statements at once); a Date (the queue's "now") as a marker. */
const normalized = (statements: ReadonlyArray<Statement | SentStatement>) =>
  statements.map((s) => `${s.text}\n-- ${JSON.stringify(s.params.map((p) => p instanceof Date ? "<a time>" : p))}`).sort()

const setup = once(Effect.gen(function*() {
  const result = yield* importFixture(referenceFixture())
  const base = yield* baseUrl
  const admin = result.tokens["p1"]!
  const learner = result.tokens[LEARNER]!
  const membersCursor = yield* Effect.promise(() => cursorAfterPage(base, "/v1/members", admin, 2))
  const endpoints = hotEndpoints({ admin, learner, roleId: result.ids.companyRoles["r5"]!, membersCursor, laterPage: 3 })
  return { base, admin, learner, endpoints, roleId: result.ids.companyRoles["r5"]! }
}))

/** The same request to our server and to the reference, each with every token's last_used_at cleared first (so both refresh it). */
const both = (path: string, token: string | null) =>
  Effect.gen(function*() {
    const sql = yield* Sql
    const reference = yield* ReferenceServer
    const base = yield* baseUrl
    const call = (url: string) =>
      fetch(`${url}${path}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, text: await r.text() }))
    yield* sql.unsafe("UPDATE access_tokens SET last_used_at = NULL")
    const ourStatements: Array<Statement> = []
    captureInto(ourStatements)
    const ours = yield* Effect.promise(() => call(base)).pipe(Effect.ensuring(Effect.sync(() => captureInto(null))))
    yield* sql.unsafe("UPDATE access_tokens SET last_used_at = NULL")
    const sent: Array<SentStatement> = []
    reference.collectInto(sent)
    const theirs = yield* Effect.promise(() => call(reference.url)).pipe(Effect.ensuring(Effect.sync(() => reference.collectInto(null))))
    const answer = (a: { status: number; text: string }, statements: ReadonlyArray<Statement | SentStatement>): Answer => ({ ...a, statements: normalized(statements) })
    return { ours: answer(ours, ourStatements), reference: answer(theirs, sent) }
  })

/** Where two texts part, with some of each around it; null when they are equal. */
const firstDifference = (ours: string, theirs: string): string | null => {
  if (ours === theirs) return null
  let i = 0
  while (i < ours.length && ours[i] === theirs[i]) i++
  const around = (text: string) => text.slice(Math.max(0, i - 60), i + 60).replace(/\n/g, "⏎")
  return `at character ${i}:\n  ours:      ${around(ours)}\n  reference: ${around(theirs)}`
}

const expectSame = (label: string, ours: Answer, reference: Answer) => {
  expect.soft(ours.status, `${label}: our status (${ours.text.slice(0, 200)})`).toBe(200)
  expect.soft(reference.status, `${label}: the reference's status (${reference.text.slice(0, 200)})`).toBe(ours.status)
  expect.soft(firstDifference(ours.text, reference.text), `${label}: the bodies differ`).toBeNull()
  expect.soft(reference.statements.length, `${label}: how many statements`).toBe(ours.statements.length)
  ours.statements.forEach((statement, i) =>
    expect.soft(firstDifference(statement, reference.statements[i] ?? ""), `${label}: statement ${i + 1} (in text order) differs`).toBeNull()
  )
}

layer(TestLive, { excludeTestServices: true, timeout: 60_000 })("the bench's reference server", (it) => {
  it.effect("answers every hot endpoint with our server's status, body bytes and statements", () =>
    Effect.gen(function*() {
      const { endpoints } = yield* setup
      expect(endpoints.length).toBe(14)
      // Named prepared statements on a PostgreSQL server; unnamed on the embedded database, whose sockets share one session.
      expect((yield* ReferenceServer).named).toBe((process.env["TEST_DATABASE_URL"] ?? "").trim() !== "")
      for (const endpoint of endpoints as ReadonlyArray<HotEndpoint>) {
        const { ours, reference } = yield* both(endpoint.path, endpoint.token)
        expectSame(endpoint.label, ours, reference)
        if (endpoint.kind === "database") expect.soft(ours.statements.length, `${endpoint.label}: statements captured`).toBeGreaterThan(1)
      }
    }))

  it.effect("answers the next pages (after a cursor) and a viewer's reads the same way", () =>
    Effect.gen(function*() {
      const { admin, learner, roleId } = yield* setup
      const firstPages: ReadonlyArray<readonly [string, string, string]> = [
        ["members", "/v1/members?limit=3", admin],
        ["members query", `/v1/members?query=${encodeURIComponent("person 1")}&limit=3`, admin],
        ["company-roles", "/v1/company-roles?limit=3", admin],
        ["role duties", `/v1/company-roles/${roleId}/duties?limit=3`, admin],
        ["role duties, viewer", `/v1/company-roles/${roleId}/duties?limit=3`, learner],
        ["content", "/v1/content?limit=3", admin],
        ["content, viewer", "/v1/content?limit=3", learner],
        ["learning queue", "/v1/me/learning-queue?limit=3", learner]
      ]
      for (const [label, path, token] of firstPages) {
        const first = yield* both(path, token)
        expectSame(`${label}, page 1`, first.ours, first.reference)
        const cursor = JSON.parse(first.ours.text).nextCursor as string | null
        expect.soft(cursor, `${label}: a second page`).not.toBeNull()
        if (cursor === null) continue
        const second = yield* both(`${path}&cursor=${encodeURIComponent(cursor)}`, token)
        expectSame(`${label}, page 2`, second.ours, second.reference)
      }
      for (const query of ["shipment", "forklit", "inspection"]) {
        const { ours, reference } = yield* both(`/v1/search?query=${query}&limit=10`, learner)
        expectSame(`search "${query}", viewer`, ours, reference)
      }
    }))
})
