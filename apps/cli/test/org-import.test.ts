import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { demoFixture } from "@tks/core/demo/fixture"
import type { ImportResult } from "@tks/core/org-import/schema"
import { DatabaseLive } from "@tks/db/client"
import { runCli } from "./run-cli.js"

const dir = mkdtempSync(join(tmpdir(), "tks-cli-"))
const dataDir = join(dir, "data")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const write = (name: string, content: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(content))
  return path
}

/** Opens the CLI's data directory after the CLI has exited (PGlite allows one process at a time). */
const organizationCount = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`
  return rows[0]?.n ?? -1
}).pipe(
  Effect.provide(DatabaseLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]])))))),
  Effect.scoped
)

const slow = { timeout: 180_000 }

describe("pnpm cli org import", () => {
  it.live("an invalid fixture: exit code 1, only the problem list on stderr, nothing on stdout, the database never opened", () =>
    Effect.gen(function*() {
      const file = write("invalid.json", {
        organization: { name: "Broken" },
        people: [{ key: "a", name: "Ann", email: "ann@broken.example", role: "owner", status: "DEACTIVATED", deactivatedAt: "yesterday" }],
        duties: [{ holder: { person: "a" }, raci: "RESPONSIBLE", entity: { topic: "missing" } }]
      })
      const run = yield* runCli(["org", "import", file], { DATA_DIR: dataDir })
      expect(run.code).toBe(1)
      expect(run.stdout).toBe("")
      // npx itself may warn about the machine's npm configuration; everything else is the list.
      expect(run.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("npm warn"))).toEqual([
        "The fixture has 2 problems; nothing was imported:",
        `  - people[0].deactivatedAt: "yesterday" is not an ISO 8601 date-time with an offset, such as "2026-11-21T10:52:00Z"`,
        `  - duties[0].entity.topic: unknown topic key "missing"`
      ])
      expect(existsSync(dataDir)).toBe(false)
    }), slow)

  it.live("imports the demo fixture and prints the ImportResult as JSON; its tokens can be created and revoked, never for a person who has left", () =>
    Effect.gen(function*() {
      const file = write("demo.json", demoFixture())
      const run = yield* runCli(["org", "import", file], { DATA_DIR: dataDir })
      expect(run.stderr).toContain("organization imported")
      expect(run.code).toBe(0)
      const result: ImportResult = JSON.parse(run.stdout)
      expect(result.organizationId).toMatch(/^org_/)
      expect(Object.keys(result.ids.people)).toHaveLength(12)
      expect(Object.keys(result.tokens)).toHaveLength(11)
      expect(result.tokens["ava"]).toMatch(/^tks_/)
      expect(yield* organizationCount).toBe(1)

      const created = yield* runCli(
        ["token", "create", "--org", result.organizationId, "--user", result.ids.people["finn"] ?? "", "--scopes", "content:write", "--expires", "30d"],
        { DATA_DIR: dataDir }
      )
      expect(created.code).toBe(0)
      const token: { id: string; token: string; expiresAt: string } = JSON.parse(created.stdout)
      expect(token.token).toMatch(/^tks_/)
      expect(new Date(token.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000)

      // Liam has left the organization: no token for him, and a sentence that says why.
      const refused = yield* runCli(
        ["token", "create", "--org", result.organizationId, "--user", result.ids.people["liam"] ?? "", "--scopes", "content:write"],
        { DATA_DIR: dataDir }
      )
      expect(refused.code).toBe(1)
      expect(refused.stdout).toBe("")
      expect(refused.stderr).toContain("This person has left the organization")

      const revoked = yield* runCli(["token", "revoke", token.id], { DATA_DIR: dataDir })
      expect(revoked.code).toBe(0)
      const again = yield* runCli(["token", "revoke", token.id], { DATA_DIR: dataDir })
      expect(again.code).toBe(1)
      expect(again.stderr).toContain("No live token with that id")
    }), slow)

  it.live("org schema prints the fixture's JSON Schema, training sections included, without touching a database", () =>
    Effect.gen(function*() {
      const run = yield* runCli(["org", "schema"], { DATA_DIR: join(dir, "never-created") })
      expect(run.code).toBe(0)
      const schema: { $defs: Record<string, { required?: Array<string>; properties?: Record<string, unknown> }> } = JSON.parse(run.stdout)
      expect(schema.$defs["OrgFixture"]?.required).toEqual(["organization"])
      expect(Object.keys(schema.$defs["OrgFixture"]?.properties ?? {})).toEqual(
        expect.arrayContaining(["reviews", "retrainingPolicies", "mastery", "enrollments", "obligations", "popQuizzes"])
      )
      expect(run.stderr).not.toContain("PGlite")
    }), slow)
})
