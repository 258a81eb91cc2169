import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import type { ImportResult } from "@tks/core/org-import/schema"
import { provisionMigratedTestDatabase } from "@tks/db/test-database"
import { AuditEvent } from "@tks/domain/audit"
import { runCli, said } from "./run-cli.js"

/**
 * `cli audit export`: the organization's audit log as JSON lines on stdout,
 * oldest first, each line an AuditEvent; logs only on stderr. The acts
 * before it are the operator's own (import, token, identity provider),
 * each recorded as the CLI's, with the CLI's user agent. The CLI runs
 * against a fresh database of the test's (TEST_DATABASE_URL's server, or an
 * embedded one served over a socket), so it runs on both.
 */
const dir = mkdtempSync(join(tmpdir(), "tks-cli-audit-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Each command is a fresh `npx tsx` process: seconds apiece on a loaded machine.
const slow = { timeout: 400_000 }

const decodeLine = Schema.decodeUnknownSync(Schema.parseJson(AuditEvent))

describe("pnpm cli audit export", () => {
  it.scopedLive("prints the operator's acts oldest first, one AuditEvent JSON per line, each the CLI's; --since narrows; a malformed time exits 1 with nothing on stdout", () =>
    Effect.gen(function*() {
      const url = Redacted.value(yield* provisionMigratedTestDatabase(8))
      const cli = (args: ReadonlyArray<string>) => runCli(args, { DATABASE_URL: url, DB_POOL_MAX: "2", LOG_FORMAT: "logfmt" })
      const ok = (args: ReadonlyArray<string>) =>
        Effect.tap(cli(args), (run) => expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0))

      const fixture = join(dir, "org.json")
      writeFileSync(fixture, JSON.stringify({
        organization: { name: "Audited" },
        people: [{ key: "ann", name: "Ann Admin", email: "ann@audited.test", role: "admin" }]
      }))
      const result: ImportResult = JSON.parse((yield* ok(["org", "import", fixture])).stdout)
      const org = result.organizationId
      const token: { id: string; token: string } = JSON.parse(
        (yield* ok(["token", "create", "--org", org, "--user", result.ids.people.ann!, "--scopes", "content:write", "--name", "laptop"])).stdout
      )
      yield* ok(["token", "revoke", token.id])
      yield* ok(["org", "oauth", "set", "--org", org, "--issuer", "https://login.audited.test/realms/main"])
      yield* ok(["org", "oauth", "clear", "--org", org])

      const exported = yield* ok(["audit", "export", "--org", org])
      expect(exported.stdout.endsWith("\n")).toBe(true)
      const rows = exported.stdout.trimEnd().split("\n").map((line) => decodeLine(line))
      expect(rows.map((row) => row.action)).toEqual([
        "organization.imported",
        "access_token.issued",
        "access_token.revoked",
        "oauth_settings.set",
        "oauth_settings.cleared"
      ])
      expect(rows.map((row) => row.occurredAt)).toEqual(rows.map((row) => row.occurredAt).sort())
      for (const row of rows) {
        expect(row).toMatchObject({ actor: { type: "system", name: "cli" }, requestId: null, clientIp: null, userAgent: "tks-cli" })
      }
      expect(rows[1]!.changes).toEqual({ name: { new: "laptop" }, scopes: { new: ["content:write"] }, expiresAt: { new: null } })
      expect(exported.stdout).not.toContain(token.token)
      expect(said(exported.stderr).some((line) => line.includes("audit export done") && line.includes("rows=5"))).toBe(true)

      const since = yield* ok(["audit", "export", "--org", org, "--since", rows[2]!.occurredAt])
      expect(since.stdout.trimEnd().split("\n").map((line) => decodeLine(line).id)).toEqual(rows.slice(2).map((row) => row.id))

      const badTime = yield* cli(["audit", "export", "--org", org, "--since", "yesterday"])
      expect(badTime.code).toBe(1)
      expect(badTime.stdout).toBe("")
      expect(said(badTime.stderr).join("\n")).toContain(`--since: "yesterday" must be an ISO 8601 date and time with a UTC offset`)
    }), slow)
})
