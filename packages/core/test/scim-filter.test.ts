import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { type ScimAttributes, scimFilterSql } from "../src/scim/filter.js"

/** Four people as rows, filtered in the database by the SQL a SCIM filter becomes. */
const matching = (text: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const attributes: ScimAttributes = new Map([
      ["username", { kind: "string", column: sql`p.user_name` }],
      ["externalid", { kind: "caseExact", column: sql`p.external_id` }],
      ["emails.value", { kind: "string", column: sql`p.email` }],
      ["emails.type", { kind: "string", column: sql`'work'` }],
      ["active", { kind: "boolean", column: sql`p.active` }],
      ["meta.lastmodified", { kind: "dateTime", column: sql`p.updated_at` }]
    ])
    const condition = scimFilterSql(sql, attributes, text)
    if (Either.isLeft(condition)) return condition.left.detail
    const rows = yield* sql<{ id: string }>`
      WITH p (id, user_name, external_id, email, active, updated_at) AS (VALUES
        ('ann', 'Ann@Example.com', 'E-1', 'ann@example.com', true, timestamptz '2026-01-01T00:00:00Z'),
        ('bob', 'bob@example.com', 'e-2', 'bob@corp.example', false, timestamptz '2026-02-01T00:00:00Z'),
        ('cat', 'cat@other.test', NULL, 'cat@other.test', true, timestamptz '2026-03-01T00:00:00Z'),
        ('dee', 'dee@example.com', '', 'dee.x@example.com', true, timestamptz '2026-04-01T00:00:00Z'))
      SELECT id FROM p WHERE ${condition.right} ORDER BY id`.pipe(Effect.orDie)
    return rows.map((row) => row.id)
  })

layer(TestDatabaseLive)("SCIM filters as SQL", (it) => {
  it.effect("eq on userName ignores case; on externalId (case-exact) it does not", () =>
    Effect.gen(function*() {
      expect(yield* matching(`userName eq "ann@example.com"`)).toEqual(["ann"])
      expect(yield* matching(`USERNAME eq "ANN@EXAMPLE.COM"`)).toEqual(["ann"])
      expect(yield* matching(`urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bob@example.com"`)).toEqual(["bob"])
      expect(yield* matching(`externalId eq "E-1"`)).toEqual(["ann"])
      expect(yield* matching(`externalId eq "e-1"`)).toEqual([])
    }))

  it.effect("co, sw, ew and ne compare strings, a quote or percent in the value is only a character", () =>
    Effect.gen(function*() {
      expect(yield* matching(`emails.value co "example.com"`)).toEqual(["ann", "dee"])
      expect(yield* matching(`userName sw "B"`)).toEqual(["bob"])
      expect(yield* matching(`emails.value ew ".test"`)).toEqual(["cat"])
      expect(yield* matching(`userName ne "ann@example.com"`)).toEqual(["bob", "cat", "dee"])
      expect(yield* matching(`userName co "%"`)).toEqual([])
      expect(yield* matching(`userName eq "x' OR '1'='1"`)).toEqual([])
    }))

  it.effect("pr is present and not empty; and, or, not and parentheses combine", () =>
    Effect.gen(function*() {
      expect(yield* matching(`externalId pr`)).toEqual(["ann", "bob"])
      expect(yield* matching(`active eq true and (userName sw "a" or userName sw "c")`)).toEqual(["ann", "cat"])
      expect(yield* matching(`not (active eq true)`)).toEqual(["bob"])
      expect(yield* matching(`active eq false or externalId eq "E-1"`)).toEqual(["ann", "bob"])
    }))

  it.effect("a value path filters on the multi-valued attribute's sub-attributes", () =>
    Effect.gen(function*() {
      expect(yield* matching(`emails[type eq "work" and value eq "bob@corp.example"]`)).toEqual(["bob"])
      expect(yield* matching(`emails[value sw "dee"]`)).toEqual(["dee"])
    }))

  it.effect("dates compare in order", () =>
    Effect.gen(function*() {
      expect(yield* matching(`meta.lastModified gt "2026-02-15T00:00:00Z"`)).toEqual(["cat", "dee"])
      expect(yield* matching(`meta.lastModified le "2026-02-01T00:00:00Z"`)).toEqual(["ann", "bob"])
    }))

  it.effect("an attribute not listed, a wrong type of value or text that does not parse is refused with why", () =>
    Effect.gen(function*() {
      expect(yield* matching(`title eq "boss"`)).toMatch(/^"title" cannot be filtered on; filterable: username, externalid/)
      expect(yield* matching(`active eq "yes"`)).toBe(`active eq needs true or false, not "yes"`)
      expect(yield* matching(`active co true`)).toBe("active is a boolean: only eq, ne and pr apply")
      expect(yield* matching(`meta.lastModified gt "soon"`)).toMatch(/needs a date and time/)
      expect(yield* matching(`userName eq`)).toMatch(/^The filter does not parse/)
      expect(yield* matching(`userName zz "a"`)).toMatch(/^The filter does not parse/)
    }))
})
