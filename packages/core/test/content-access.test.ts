import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { OrgRole, Visibility } from "@tks/domain/roles"
import { canRead } from "@tks/domain/visibility"
import { TestDatabaseLive } from "@tks/db/test-database"
import { contentReadable, contentVisible, readerOf, userRowReader } from "../src/knowledge/access.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { importedOnce } from "./support/access.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const people: ReadonlyArray<{ key: string; role: OrgRole; teams: ReadonlyArray<string> }> = [
  { key: "owner", role: "owner", teams: [] },
  { key: "admin", role: "admin", teams: [] },
  { key: "billing", role: "billing-admin", teams: [] },
  { key: "viewer", role: "viewer", teams: [] },
  { key: "viewerRed", role: "viewer", teams: ["red"] },
  { key: "viewerBlue", role: "viewer", teams: ["blue"] },
  { key: "external", role: "external", teams: [] },
  { key: "externalRed", role: "external", teams: ["red"] }
]

const records: ReadonlyArray<{ key: string; visibility: Visibility; teams: ReadonlyArray<string> }> = [
  { key: "open", visibility: "everyone", teams: [] },
  { key: "red", visibility: "teams", teams: ["red"] },
  { key: "redGreen", visibility: "teams", teams: ["red", "green"] },
  { key: "green", visibility: "teams", teams: ["green"] },
  { key: "admins", visibility: "admins", teams: [] }
]

const fixture: OrgFixtureInput = {
  organization: { name: "Content Access Org" },
  people: people.map((p) => ({ key: p.key, name: `Person ${p.key}`, email: `${p.key}@content-access.test`, role: p.role })),
  teams: ["red", "blue", "green"].map((team) => ({
    key: team,
    name: `Team ${team}`,
    members: people.filter((p) => p.teams.includes(team)).map((p) => ({ person: p.key }))
  })),
  content: [
    ...records.map((r) => ({ key: r.key, title: `Content ${r.key}`, visibility: r.visibility, teams: [...r.teams] })),
    // Readable by everyone's visibility, but not in the library.
    ...(["draft", "in_review", "rejected", "withdrawn"] as const).map((status) => ({ key: status, title: `Content ${status}`, status }))
  ]
}

const setup = importedOnce({ fixture })

/** What @tks/domain/visibility says, for every person and record: "person/record" pairs. */
const expectedPairs = people.flatMap((p) =>
  records.filter((r) => canRead({ role: p.role, teamIds: p.teams }, r.visibility, r.teams)).map((r) => `${p.key}/${r.key}`)
).sort()

layer(TestLayer)("content visibility SQL (everyone, teams, admins)", (it) => {
  it.effect("the expected matrix: an external account on a team reads that team's content and nothing shared with everyone", () =>
    Effect.sync(() => {
      expect(expectedPairs.filter((pair) => pair.startsWith("external"))).toEqual(["externalRed/red", "externalRed/redGreen"])
      expect(expectedPairs.filter((pair) => pair.startsWith("viewerRed/"))).toEqual(["viewerRed/open", "viewerRed/red", "viewerRed/redGreen"])
      expect(expectedPairs.filter((pair) => pair.endsWith("/admins"))).toEqual(["admin/admins", "billing/admins", "owner/admins"])
    }))

  it.effect("contentReadable for a known person (the caller) agrees with canRead", () =>
    Effect.gen(function*() {
      const { fixture: org } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const keyOf = new Map(Object.entries(org.ids.content).map(([key, id]) => [id, key]))
      const pairs: Array<string> = []
      for (const p of people) {
        const rows = yield* sql<{ id: string }>`SELECT c.id FROM content c
          WHERE c.org_id = ${org.organizationId} AND c.status = 'published' AND ${contentReadable(sql, readerOf(org.actor(p.key)), "c")}`
        pairs.push(...rows.map((row) => `${p.key}/${keyOf.get(row.id)}`))
      }
      expect(pairs.sort()).toEqual(expectedPairs)
    }))

  it.effect("contentReadable for users rows of the query (set-based) agrees with canRead", () =>
    Effect.gen(function*() {
      const { fixture: org } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ person: string; content: string }>`
        SELECT u.id AS person, c.id AS content FROM users u JOIN content c ON c.org_id = u.org_id
        WHERE u.org_id = ${org.organizationId} AND c.status = 'published' AND ${contentReadable(sql, userRowReader("u"), "c")}`
      const personKey = new Map(Object.entries(org.ids.people).map(([key, id]) => [id, key]))
      const contentKey = new Map(Object.entries(org.ids.content).map(([key, id]) => [id, key]))
      expect(rows.map((row) => `${personKey.get(row.person)}/${contentKey.get(row.content)}`).sort()).toEqual(expectedPairs)
    }))

  it.effect("contentVisible leaves out drafts, records in review, rejected and withdrawn ones, even for the owner", () =>
    Effect.gen(function*() {
      const { fixture: org } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ id: string }>`SELECT c.id FROM content c
        WHERE c.org_id = ${org.organizationId} AND ${contentVisible(sql, readerOf(org.actor("owner")), "c")}`
      expect(rows.map((row) => row.id).sort()).toEqual(records.map((r) => org.ids.content[r.key]).sort())
      const readable = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content c
        WHERE c.org_id = ${org.organizationId} AND ${contentReadable(sql, readerOf(org.actor("owner")), "c")}`
      expect(readable[0]?.n).toBe(records.length + 4)
    }))
})
