import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, JSONSchema, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import { OrgFixture } from "../src/org-import/schema.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const count = (table: "organizations" | "users" | "invitations") =>
  SqlClient.SqlClient.pipe(
    Effect.flatMap((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`),
    Effect.map((rows) => rows[0]?.n ?? -1)
  )

/** Every path of the published JSON Schema whose value is a date-time, and every property named `...At` or `dueDate` (the contract's name). */
const dateTimePaths = () => {
  const document = JSONSchema.make(OrgFixture) as { $defs: Record<string, unknown> }
  const dateTimes: Array<string> = []
  const named: Array<string> = []
  const walk = (node: unknown, path: string, seen: ReadonlySet<string>): void => {
    if (typeof node !== "object" || node === null) return
    const schema = node as Record<string, unknown>
    const ref = typeof schema["$ref"] === "string" ? schema["$ref"].replace("#/$defs/", "") : undefined
    if (ref !== undefined) return seen.has(ref) ? undefined : walk(document.$defs[ref], path, new Set([...seen, ref]))
    if (schema["format"] === "date-time") dateTimes.push(path)
    for (const option of (schema["anyOf"] as Array<unknown> | undefined) ?? []) walk(option, path, seen)
    walk(schema["items"], `${path}[]`, seen)
    for (const [field, value] of Object.entries((schema["properties"] as Record<string, unknown> | undefined) ?? {})) {
      const fieldPath = path === "" ? field : `${path}.${field}`
      if (field.endsWith("At") || field === "dueDate") named.push(fieldPath)
      walk(value, fieldPath, seen)
    }
  }
  walk(document, "", new Set())
  return { dateTimes: [...new Set(dateTimes)].sort(), named: [...new Set(named)].sort() }
}

layer(TestLayer)("fixture timestamps", (it) => {
  it.effect("timestamps that are not real ISO 8601 date-times with an offset are refused with their path; nothing is written", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const before = [yield* count("organizations"), yield* count("users"), yield* count("invitations")]
      const error = yield* Effect.flip(importer.importOrganization({
        organization: { name: "Clockless Co" },
        people: [
          { key: "a", name: "Ann", email: "ann@clock.example", role: "owner", status: "DEACTIVATED", deactivatedAt: "yesterday" },
          { key: "b", name: "Bob", email: "bob@clock.example", role: "viewer", tokenScopes: [], tokenExpiresAt: "2026-02-30T10:00:00Z" }
        ],
        invitations: [
          { name: "Cy", email: "cy@clock.example", createdAt: "2026-13-45" },
          { name: "Di", email: "di@clock.example", expiresAt: "2026-01-01" },
          { name: "Ed", email: "ed@clock.example", createdAt: "2026-01-01T10:00:00", expiresAt: "2026-01-01T24:00:00Z" }
        ],
        findings: [{ content: "x", source: { type: "user" }, createdAt: 1767225600000 }],
        orgChartVerification: { lastVerifiedAt: "2026-04-31T00:00:00+02:00" },
        directory: { connection: { status: "ACTIVE", tokenCreatedAt: "2026-01-01T00:00:00+24:00" } }
      }))
      if (error._tag !== "FixtureInvalid") throw error
      expect(error.problems).toEqual([
        `people[0].deactivatedAt: "yesterday" is not an ISO 8601 date-time with an offset, such as "2026-11-21T10:52:00Z"`,
        `people[1].tokenExpiresAt: "2026-02-30T10:00:00Z" is not a real date-time: February 2026 has 28 days`,
        `invitations[0].createdAt: "2026-13-45" is not a real date: there is no month 13`,
        `invitations[1].expiresAt: "2026-01-01" is a date without a time; write a date-time with an offset, such as "2026-01-01T00:00:00Z"`,
        `invitations[2].expiresAt: "2026-01-01T24:00:00Z" is not a real date-time: hours run 00-23, minutes and seconds 00-59`,
        `invitations[2].createdAt: "2026-01-01T10:00:00" has no offset; end it with Z (UTC) or an offset such as +02:00`,
        "findings[0].createdAt: expected string, got 1767225600000",
        `orgChartVerification.lastVerifiedAt: "2026-04-31T00:00:00+02:00" is not a real date-time: April 2026 has 30 days`,
        `directory.connection.tokenCreatedAt: "2026-01-01T00:00:00+24:00" is not a real date-time: an offset runs from -23:59 to +23:59`
      ])
      expect([yield* count("organizations"), yield* count("users"), yield* count("invitations")]).toEqual(before)
    }))

  it.effect("offsets, fractions, lowercase t and z, and leap days are read as the instant they name", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const sql = yield* SqlClient.SqlClient
      const result = yield* importer.importOrganization({
        organization: { name: "Clockwork Co" },
        people: [{ key: "p", name: "Pat", email: "pat@clockwork.example", role: "owner" }],
        invitations: [
          { name: "A", email: "a@clockwork.example", createdAt: "2024-02-29T23:30:00-01:00", expiresAt: "2026-01-01t10:00:00.1234z" },
          { name: "B", email: "b@clockwork.example", createdAt: "2026-03-01T01:00:00+05:30", expiresAt: "2400-02-29T00:00:00Z" }
        ]
      })
      const rows = yield* sql<{ created_at: Date; expires_at: Date }>`
        SELECT created_at, expires_at FROM invitations WHERE org_id = ${result.organizationId} ORDER BY email`
      expect(rows.map((row) => [row.created_at.toISOString(), row.expires_at.toISOString()])).toEqual([
        ["2024-03-01T00:30:00.000Z", "2026-01-01T10:00:00.123Z"],
        ["2026-02-28T19:30:00.000Z", "2400-02-29T00:00:00.000Z"]
      ])
    }))

  it("every timestamp field is published in the JSON Schema as format date-time", () => {
    const { dateTimes, named } = dateTimePaths()
    expect(dateTimes).toEqual(named)
    expect(dateTimes).toEqual([
      "companyRoles[].members[].endedAt",
      "companyRoles[].members[].startedAt",
      "content[].createdAt",
      "content[].updatedAt",
      "directory.connection.createdAt",
      "directory.connection.lastSyncAt",
      "directory.connection.pausedAt",
      "directory.connection.tokenCreatedAt",
      "directory.connection.tokenExpiresAt",
      "directory.connection.tokenLastUsedAt",
      "directory.events[].createdAt",
      "enrollments[].attempts[].completedAt",
      "enrollments[].completedAt",
      "enrollments[].enrolledAt",
      "enrollments[].retrainAt",
      "enrollments[].startedAt",
      "findings[].createdAt",
      "invitations[].createdAt",
      "invitations[].expiresAt",
      "issues[].createdAt",
      "issues[].resolution.resolvedAt",
      "issues[].updatedAt",
      "lessons[].createdAt",
      "lessons[].updatedAt",
      "mastery[].provenAt",
      "obligations[].createdAt",
      "obligations[].dueBasisAt",
      "obligations[].dueDate",
      "obligations[].endedAt",
      "orgChartVerification.lastVerifiedAt",
      "people[].deactivatedAt",
      "people[].tokenExpiresAt",
      "popQuizzes[].createdAt",
      "popQuizzes[].dueDate",
      "popQuizzes[].recipients[].completedAt",
      "retrainingPolicies[].updatedAt",
      "reviewRequests[].createdAt",
      "reviews[].reviewedAt"
    ])
  })
})
