import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import type { ImportResult } from "@tks/core/org-import/schema"
import { provisionMigratedTestDatabase } from "@tks/db/test-database"
import { AuditEvent } from "@tks/domain/audit"
import { runCli, said } from "./run-cli.js"

/**
 * `cli org domains add | remove | list`: the operator's verified email
 * domains. A name that is not a domain is refused before the database is
 * opened; the rest runs against a fresh database of the test's
 * (TEST_DATABASE_URL's server, or an embedded one served over a socket), so
 * it runs on both.
 */
const dir = mkdtempSync(join(tmpdir(), "tks-cli-domains-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Each command is a fresh `npx tsx` process: seconds apiece on a loaded machine.
const slow = { timeout: 400_000 }

const decodeLine = Schema.decodeUnknownSync(Schema.parseJson(AuditEvent))

describe("pnpm cli org domains", () => {
  it.live("an IP address, a single label, a label over 63 characters or an email address: exit 1 with the reason, the database never opened", () =>
    Effect.gen(function*() {
      const dataDir = join(dir, "never")
      const long = `${"a".repeat(64)}.com`
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [["add", "--org", "org_x", "192.168.1.10"], `"192.168.1.10" is an IP address; give the bare domain name, such as example.com`],
        [["add", "--org", "org_x", "intranet"], `"intranet" has no dot; give the bare domain name, such as example.com, not a single label`],
        [["add", "--org", "org_x", long], `"${long}" has a label longer than 63 characters ("aaaaaaaaaaaaaaaaaaaa...")`],
        [["remove", "--org", "org_x", "ann@example.com"], `"ann@example.com" is an email address; give the bare domain name, such as example.com`]
      ]
      for (const [args, reason] of cases) {
        const run = yield* runCli(["org", "domains", ...args], { DATA_DIR: dataDir })
        expect(run.code, args.join(" ")).toBe(1)
        expect(run.stdout, args.join(" ")).toBe("")
        expect(said(run.stderr), args.join(" ")).toEqual([reason])
      }
      expect(existsSync(dataDir)).toBe(false)
    }), slow)

  it.scopedLive("adds folded and verified, lists by name, refuses a domain another organization holds, removes; each change an act of the CLI in the audit log", () =>
    Effect.gen(function*() {
      const url = Redacted.value(yield* provisionMigratedTestDatabase(8))
      const cli = (args: ReadonlyArray<string>) => runCli(args, { DATABASE_URL: url, DB_POOL_MAX: "2", LOG_FORMAT: "logfmt" })
      const ok = (args: ReadonlyArray<string>) =>
        Effect.map(
          Effect.tap(cli(args), (run) => expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0)),
          (run) => JSON.parse(run.stdout)
        )
      const refused = (args: ReadonlyArray<string>) =>
        Effect.tap(cli(args), (run) => {
          expect(run.code, args.join(" ")).toBe(1)
          expect(run.stdout, args.join(" ")).toBe("")
        }).pipe(Effect.map((run) => said(run.stderr).filter((line) => !line.includes("level="))))
      const organization = (name: string) =>
        Effect.gen(function*() {
          const fixture = join(dir, `${name}.json`)
          writeFileSync(fixture, JSON.stringify({
            organization: { name },
            people: [{ key: "ann", name: "Ann Admin", email: `ann@${name.toLowerCase()}.test`, role: "admin" }]
          }))
          const result: ImportResult = yield* ok(["org", "import", fixture])
          return result.organizationId
        })
      const org = yield* organization("Domained")
      const other = yield* organization("Neighbour")

      const added = yield* ok(["org", "domains", "add", "--org", org, "Corp.EXAMPLE.test."])
      expect(added).toEqual({
        organizationId: org,
        domain: "corp.example.test",
        verifiedAt: expect.any(String),
        createdAt: added.verifiedAt,
        addedBy: "system:cli",
        added: true
      })
      expect((yield* ok(["org", "domains", "add", "--org", org, "bücher.test"])).domain).toBe("xn--bcher-kva.test")
      expect(yield* ok(["org", "domains", "add", "--org", org, "corp.example.test"])).toEqual({ ...added, added: false })
      const listed = yield* ok(["org", "domains", "list", "--org", org])
      expect(listed.organizationId).toBe(org)
      expect(listed.data.map((row: { domain: string }) => row.domain)).toEqual(["corp.example.test", "xn--bcher-kva.test"])
      expect(listed.data[0]).toEqual({ domain: "corp.example.test", verifiedAt: added.verifiedAt, createdAt: added.createdAt, addedBy: "system:cli" })

      expect(yield* refused(["org", "domains", "add", "--org", other, "corp.example.test"])).toEqual([
        `DomainTaken: corp.example.test is a verified domain of another organization (${org}); a domain belongs to one organization only, so remove it there first`
      ])
      expect(yield* ok(["org", "domains", "remove", "--org", org, "CORP.example.test"])).toEqual({
        organizationId: org,
        domain: "corp.example.test",
        removed: true
      })
      expect(yield* refused(["org", "domains", "remove", "--org", org, "corp.example.test"])).toEqual([
        "NotFound: corp.example.test is not a verified domain of the organization"
      ])
      expect(yield* refused(["org", "domains", "list", "--org", "org_unknown"])).toEqual(["NotFound: No such organization"])
      expect((yield* ok(["org", "domains", "list", "--org", other])).data).toEqual([])

      const exported = yield* cli(["audit", "export", "--org", org])
      const rows = exported.stdout.trimEnd().split("\n").map((line) => decodeLine(line))
      expect(rows.map((row) => [row.action, row.targets[1]?.id ?? null])).toEqual([
        ["organization.imported", null],
        ["organization_domain.added", "corp.example.test"],
        ["organization_domain.added", "xn--bcher-kva.test"],
        ["organization_domain.removed", "corp.example.test"]
      ])
      for (const row of rows) expect(row).toMatchObject({ actor: { type: "system", name: "cli" }, userAgent: "tks-cli" })
    }), slow)
})
