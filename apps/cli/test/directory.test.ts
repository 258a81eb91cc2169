import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import type { ImportResult } from "@tks/core/org-import/schema"
import { provisionMigratedTestDatabase } from "@tks/db/test-database"
import { DirectoryConnection } from "@tks/domain/administration"
import { AuditEvent } from "@tks/domain/audit"
import { runCli, said } from "./run-cli.js"

/**
 * `cli directory ...`: the operator connects an organization's identity
 * directory (the token printed once, with the SCIM base URL), rotates the
 * token, pauses and resumes the sync; each act is recorded as the CLI's and
 * no audit row holds a token. The CLI runs against a fresh database of the
 * test's (TEST_DATABASE_URL's server, or an embedded one served over a
 * socket), so it runs on both.
 */
const dir = mkdtempSync(join(tmpdir(), "tks-cli-directory-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Each command is a fresh `npx tsx` process: seconds apiece on a loaded machine.
const slow = { timeout: 400_000 }

const Issued = Schema.parseJson(Schema.Struct({ scimBaseUrl: Schema.String, token: Schema.String, connection: DirectoryConnection }))
const decodeIssued = Schema.decodeUnknownSync(Issued)
const decodeConnection = Schema.decodeUnknownSync(Schema.parseJson(DirectoryConnection))
const decodeLine = Schema.decodeUnknownSync(Schema.parseJson(AuditEvent))

const days = (connection: typeof DirectoryConnection.Type) =>
  (Date.parse(connection.tokenExpiresAt!) - Date.parse(connection.tokenCreatedAt!)) / 86_400_000

describe("pnpm cli directory", () => {
  it.scopedLive("connect prints the token once with the SCIM base URL; connecting again, an unknown organization or a bad lifetime exit 1 saying why; rotate, pause and resume print the connection; each act is the CLI's audit row, never with a token", () =>
    Effect.gen(function*() {
      const url = Redacted.value(yield* provisionMigratedTestDatabase(8))
      const env = { DATABASE_URL: url, DB_POOL_MAX: "2", LOG_FORMAT: "logfmt", PUBLIC_URL: "https://tks.example.test/" }
      const cli = (args: ReadonlyArray<string>) => runCli(args, env)
      const ok = (args: ReadonlyArray<string>) => Effect.tap(cli(args), (run) => expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0))

      const fixture = join(dir, "org.json")
      writeFileSync(fixture, JSON.stringify({ organization: { name: "Directory Co", plan: "enterprise" } }))
      const org = (JSON.parse((yield* ok(["org", "import", fixture])).stdout) as ImportResult).organizationId

      const connected = yield* ok(["directory", "connect", "--org", org, "--expires-in-days", "30"])
      const first = decodeIssued(connected.stdout)
      expect(first.scimBaseUrl).toBe("https://tks.example.test/scim/v2")
      expect(first.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/)
      expect(first.connection).toMatchObject({ status: "PENDING", tokenActive: true, countProvisioned: 0 })
      expect(days(first.connection)).toBe(30)
      expect(said(connected.stderr).some((line) => line.includes("only its hash is stored"))).toBe(true)

      const again = yield* cli(["directory", "connect", "--org", org])
      expect(again.code).toBe(1)
      expect(again.stdout).toBe("")
      expect(said(again.stderr).join("\n")).toContain(
        "DirectoryAlreadyConnected: The organization's directory is connected already (PENDING); rotate its token instead"
      )

      const unknown = yield* cli(["directory", "pause", "--org", "org_nobody"])
      expect(unknown.code).toBe(1)
      expect(unknown.stdout).toBe("")
      expect(said(unknown.stderr).join("\n")).toContain("NotFound: No such organization")

      const refusedLifetime = yield* cli(["directory", "token", "rotate", "--org", org, "--expires-in-days", "0"])
      expect(refusedLifetime.code).toBe(1)
      expect(said(refusedLifetime.stderr)).toEqual(["--expires-in-days: must be a whole number of days from 1 to 3650"])

      const rotated = decodeIssued((yield* ok(["directory", "token", "rotate", "--org", org])).stdout)
      expect(rotated.token).not.toBe(first.token)
      expect(rotated.connection.createdAt).toBe(first.connection.createdAt)
      expect(days(rotated.connection)).toBe(30)

      const paused = decodeConnection((yield* ok(["directory", "pause", "--org", org, "--reason", "Moving tenants"])).stdout)
      expect(paused).toMatchObject({ status: "PAUSED", pausedReason: "Moving tenants", pausedAt: expect.any(String) })
      const resumed = decodeConnection((yield* ok(["directory", "resume", "--org", org])).stdout)
      expect(resumed).toMatchObject({ status: "PENDING", pausedAt: null, pausedReason: null })

      const exported = yield* ok(["audit", "export", "--org", org])
      const rows = exported.stdout.trimEnd().split("\n").map((line) => decodeLine(line))
      expect(rows.map((row) => row.action)).toEqual([
        "organization.imported",
        "directory_connection.connected",
        "directory_token.rotated",
        "directory_connection.paused",
        "directory_connection.resumed"
      ])
      for (const row of rows) expect(row).toMatchObject({ actor: { type: "system", name: "cli" }, userAgent: "tks-cli" })
      expect(rows[1]!.targets).toEqual([{ type: "directory_connection", id: org }])
      expect(rows[3]!.changes).toEqual({ status: { old: "PENDING", new: "PAUSED" }, pausedReason: { old: null, new: "Moving tenants" } })
      expect(exported.stdout).not.toContain(first.token)
      expect(exported.stdout).not.toContain(rotated.token)
    }), slow)
})
