import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"

/** The organization fixture's `issues` section (docs/fixtures.md). */
const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const base: OrgFixtureInput = {
  organization: { name: "Issue Co" },
  people: [{ key: "ann", name: "Ann", email: "ann@issue.example", role: "owner" }],
  companyRoles: [{ key: "editor", name: "Editor", members: [{ person: "ann" }] }],
  spaces: [{ key: "s", category: "operations", name: "Space", topics: [{ key: "t", name: "Topic", items: [{ key: "i", name: "Item", kind: "fact" }] }] }],
  content: [{ key: "doc", title: "Doc", chapters: [{ headline: "One", text: "Text." }] }]
}

const issuesOf = (orgId: string) =>
  SqlClient.SqlClient.pipe(Effect.flatMap((sql) =>
    sql<{
      id: string
      status: string
      assignee_user_id: string | null
      assignee_role_id: string | null
      resolution_strategy: string | null
      resolution_note: string | null
      resolved_at: Date | null
      updated_at: Date
      targets: ReadonlyArray<[string, string]> | null
    }>`
      SELECT i.id, i.status, i.assignee_user_id, i.assignee_role_id, i.resolution_strategy, i.resolution_note, i.resolved_at, i.updated_at,
        (SELECT json_agg(json_build_array(t.entity_type, t.entity_id) ORDER BY t.position)
         FROM data_quality_issue_targets t WHERE t.org_id = i.org_id AND t.issue_id = i.id) AS targets
      FROM data_quality_issues i WHERE i.org_id = ${orgId} ORDER BY i.created_at`
  ))

layer(TestLayer)("organization import: issues", (it) => {
  it.effect("writes issues with their ordered targets (keys and category slugs), assignee and resolution", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const result = yield* importer.importOrganization({
        ...base,
        issues: [
          {
            key: "first",
            type: "CONFLICT",
            severity: "HIGH",
            title: "First",
            targets: [{ content: "doc" }, { item: "i" }, { topic: "t" }, { space: "s" }, { category: "operations" }],
            assignee: { role: "editor" },
            createdAt: "2026-01-01T00:00:00Z"
          },
          {
            type: "DUPLICATE",
            severity: "LOW",
            status: "RESOLVED",
            title: "Second",
            assignee: { person: "ann" },
            resolution: { strategy: "KEPT_BOTH" },
            createdAt: "2026-01-02T00:00:00Z",
            updatedAt: "2026-01-03T00:00:00Z"
          }
        ]
      })
      const rows = yield* issuesOf(result.organizationId)
      expect(rows).toHaveLength(2)
      expect(rows[0]).toMatchObject({
        id: result.ids.issues.first,
        status: "OPEN",
        assignee_user_id: null,
        assignee_role_id: result.ids.companyRoles.editor,
        resolution_strategy: null,
        resolved_at: null,
        targets: [
          ["CONTENT", result.ids.content.doc],
          ["ITEM", result.ids.items.i],
          ["TOPIC", result.ids.topics.t],
          ["SPACE", result.ids.spaces.s],
          ["CATEGORY", result.ids.categories.operations]
        ]
      })
      expect(rows[1]).toMatchObject({
        status: "RESOLVED",
        assignee_user_id: result.ids.people.ann,
        assignee_role_id: null,
        resolution_strategy: "KEPT_BOTH",
        resolution_note: null,
        targets: null
      })
      expect(rows[1]?.resolved_at?.toISOString()).toBe("2026-01-03T00:00:00.000Z")
      expect(Object.keys(result.ids.issues)).toEqual(["first"])
    }))

  it.effect("reports every bad reference and rule of the section with its path, and writes nothing", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const sql = yield* SqlClient.SqlClient
      const before = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`)[0]?.n
      const outcome = yield* Effect.either(importer.importOrganization({
        ...base,
        organization: { name: "Broken Issue Co" },
        issues: [
          { type: "STALE", severity: "LOW", title: "Unknown target", targets: [{ topic: "t" }, { topic: "nope" }] },
          { type: "STALE", severity: "LOW", title: "Unknown assignee", assignee: { role: "ghost" } },
          { type: "STALE", severity: "LOW", status: "DISMISSED", title: "Closed without a resolution" },
          { type: "STALE", severity: "LOW", title: "Open with a resolution", resolution: { strategy: "OTHER" } },
          { type: "STALE", severity: "LOW", title: "Twice the same", targets: [{ item: "i" }, { item: "i" }] },
          { type: "STALE", severity: "URGENT" as "LOW", title: "Bad severity" }
        ]
      }))
      if (Either.isRight(outcome)) throw new Error("the import was expected to fail")
      const error = outcome.left
      if (error._tag !== "FixtureInvalid") throw new Error(`expected FixtureInvalid, got ${error._tag}`)
      expect(error.problems).toEqual(expect.arrayContaining([
        `issues[0].targets[1].topic: unknown topic key "nope"`,
        `issues[1].assignee.role: unknown company role key "ghost"`,
        "issues[2].resolution: a DISMISSED issue needs a resolution",
        "issues[3].resolution: an OPEN issue has no resolution",
        "issues[4].targets[1]: the same record as targets[0]"
      ]))
      expect(error.problems.some((line) => line.startsWith("issues[5].severity: "))).toBe(true)
      expect(error.problems).toHaveLength(6)
      const after = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`)[0]?.n
      expect(after).toBe(before)
    }))
})
