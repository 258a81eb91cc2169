import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const invitationsOf = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ email: string; org_role: string; lifetime_days: number }>`
      SELECT email, org_role, extract(epoch FROM expires_at - created_at)::int / 86400 AS lifetime_days
      FROM invitations WHERE org_id = ${orgId} ORDER BY email`
  })

layer(TestLayer)("fixture defaults", (it) => {
  it.effect("an organization without people: the first invitation listed becomes owner, later ones viewer", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const result = yield* importer.importOrganization({
        organization: { name: "Empty Co" },
        invitations: [
          { name: "First", email: "b-first@empty.example" },
          { name: "Second", email: "a-second@empty.example" },
          { name: "Chosen", email: "c-chosen@empty.example", role: "billing-admin" }
        ]
      })
      expect(yield* invitationsOf(result.organizationId)).toEqual([
        { email: "a-second@empty.example", org_role: "viewer", lifetime_days: 14 },
        { email: "b-first@empty.example", org_role: "owner", lifetime_days: 14 },
        { email: "c-chosen@empty.example", org_role: "billing-admin", lifetime_days: 14 }
      ])
    }))

  it.effect("an organization with people: invitations without a role are viewer; expiry counts from createdAt", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const result = yield* importer.importOrganization({
        organization: { name: "Busy Co" },
        people: [{ key: "p", name: "Pat", email: "pat@busy.example", role: "owner" }],
        invitations: [{ name: "New", email: "new@busy.example", createdAt: "2026-01-01T00:00:00.000Z" }]
      })
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ org_role: string; expires_at: Date }>`
        SELECT org_role, expires_at FROM invitations WHERE org_id = ${result.organizationId}`
      expect(rows).toEqual([{ org_role: "viewer", expires_at: new Date("2026-01-15T00:00:00.000Z") }])
    }))

  it.effect("defaults of people, plan, duties and the directory token", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const sql = yield* SqlClient.SqlClient
      const result = yield* importer.importOrganization({
        organization: { name: "Defaults Co" },
        people: [
          { key: "gone", name: "Gone", email: "gone@defaults.example", role: "viewer", status: "DEACTIVATED" },
          { key: "here", name: "Here", email: "here@defaults.example", role: "admin", tokenScopes: [], tokenExpiresAt: "2020-01-01T00:00:00.000Z" }
        ],
        spaces: [{ key: "s", category: "finance", name: "Space", topics: [{ key: "t", name: "Cash & Cards!" }] }],
        duties: [{ holder: { person: "here" }, raci: "INFORMED", entity: { category: "finance" } }],
        directory: { connection: { status: "PAUSED", tokenCreatedAt: "2026-01-01T00:00:00.000Z", tokenRevoked: true } }
      })
      const org = result.organizationId
      const [organization] = yield* sql<{ plan: string }>`SELECT plan FROM organizations WHERE id = ${org}`
      expect(organization?.plan).toBe("starter")
      const [gone] = yield* sql<{ recent: boolean }>`
        SELECT deactivated_at > now() - interval '1 minute' AS recent FROM users WHERE org_id = ${org} AND id = ${result.ids.people["gone"] ?? ""}`
      expect(gone?.recent).toBe(true)
      const [topic] = yield* sql<{ slug: string }>`SELECT slug FROM topics WHERE org_id = ${org}`
      expect(topic?.slug).toBe("cash-cards")
      const [duty] = yield* sql<{ entity_id: string; tier_qualifier: string; tier_id: string | null; holder_type: string }>`
        SELECT entity_id, tier_qualifier, tier_id, holder_type FROM duties WHERE org_id = ${org}`
      expect(duty).toEqual({ entity_id: result.ids.categories["finance"], tier_qualifier: "ALL", tier_id: null, holder_type: "person" })
      const [connection] = yield* sql<{ hashed: boolean; revoked: boolean }>`
        SELECT token_hash IS NOT NULL AS hashed, token_revoked_at IS NOT NULL AS revoked FROM directory_connections WHERE org_id = ${org}`
      expect(connection).toEqual({ hashed: true, revoked: true })
      // An expired token is still issued (a fixture may want one); it just does not authenticate.
      const [token] = yield* sql<{ expired: boolean; scopes: ReadonlyArray<string> }>`
        SELECT expires_at < now() AS expired, scopes FROM access_tokens WHERE org_id = ${org}`
      expect(token).toEqual({ expired: true, scopes: [] })
      expect(Object.keys(result.tokens)).toEqual(["here"])
    }))
})
