import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { runCli, said } from "./run-cli.js"

const dir = mkdtempSync(join(tmpdir(), "tks-cli-oauth-"))
const dataDir = join(dir, "data")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const slow = { timeout: 120_000 }

describe("pnpm cli org oauth set", () => {
  it.live("a plain-http issuer that is not on this machine, or a scope map naming an unknown scope: exit 1 with the reason, the database never opened", () =>
    Effect.gen(function*() {
      const issuer = yield* runCli(["org", "oauth", "set", "--org", "org_x", "--issuer", "http://login.example.test/realms/acme"], { DATA_DIR: dataDir })
      expect(issuer.code).toBe(1)
      expect(issuer.stdout).toBe("")
      expect(said(issuer.stderr)).toEqual([
        `--issuer: "http://login.example.test/realms/acme" must use https (plain http only for a loopback host such as 127.0.0.1 or localhost)`
      ])
      const scopes = yield* runCli(
        ["org", "oauth", "set", "--org", "org_x", "--issuer", "https://login.example.test/realms/acme", "--scope", "write=content:write,admin"],
        { DATA_DIR: dataDir }
      )
      expect(scopes.code).toBe(1)
      expect(said(scopes.stderr)).toEqual([
        `--scope "write=content:write,admin": unknown scope admin; the scopes are training:assign, content:write, narration:synthesize`
      ])
      expect(existsSync(dataDir)).toBe(false)
    }), slow)
})
