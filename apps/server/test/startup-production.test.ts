import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { banner } from "../src/startup/banner.js"
import { linesOf, startServerProcess, stop, waitReady } from "./support/server-process.js"

const slow = { timeout: 120_000 }
const modeOf = (file: string) => statSync(file).mode & 0o777
const tokenPattern = /tks_[A-Za-z0-9_-]{8,}/

/** Starts the server with `env`, waits for /ready, stops it; what it wrote and where. */
const startAndStop = (env: Record<string, string>, prepare: (dataDir: string) => void = () => {}) =>
  Effect.gen(function*() {
    const server = yield* startServerProcess(env, { prepare })
    expect(yield* waitReady(server), server.stderr()).toBe(true)
    expect(yield* stop(server)).toBe(0)
    return { stdout: server.stdout(), stderr: server.stderr(), dataDir: server.dataDir, tokensFile: join(server.dataDir, "demo-tokens.json") }
  })

describe("with NODE_ENV=production no token is printed and no demo is created unless asked", () => {
  it("the banner names no token in production, even when the demo organization exists", () => {
    const tokens = Option.some({ ava: "tks_ava_secret", ben: "tks_ben_secret" })
    const production = banner("https://tks.example", tokens, { production: true })
    expect(production).not.toContain("tks_")
    expect(production).toContain("not printed when NODE_ENV=production")
    expect(banner("http://localhost:3000", tokens, { production: false })).toContain("Bearer tks_ben_secret")
  })

  it.scopedLive("SEED_DEMO defaults to false: no demo organization, no tokens file, logs are JSON", () =>
    Effect.gen(function*() {
      const run = yield* startAndStop({ NODE_ENV: "production" })
      expect(run.stdout).not.toContain("demo organization created")
      expect(() => statSync(run.tokensFile)).toThrow()
      expect(`${run.stdout}${run.stderr}`).not.toMatch(tokenPattern)
      for (const line of linesOf(run.stdout)) expect(() => JSON.parse(line), line).not.toThrow()
    }), slow)

  it.scopedLive("with SEED_DEMO=true the demo is created, its tokens file is owner-only (0600) and no token is printed", () =>
    Effect.gen(function*() {
      const run = yield* startAndStop({ NODE_ENV: "production", SEED_DEMO: "true" })
      expect(run.stdout).toContain("demo organization created")
      expect(modeOf(run.tokensFile)).toBe(0o600)
      expect(readFileSync(run.tokensFile, "utf8")).toMatch(tokenPattern)
      expect(`${run.stdout}${run.stderr}`).not.toMatch(tokenPattern)
      expect(run.stderr).toContain("its tokens are not printed")
    }), slow)
})

describe("in production without a mail or SMS provider the start warns that messages stay on this machine", () => {
  it.scopedLive("one WARN line per channel says where its messages go and which variables send them to people", () =>
    Effect.gen(function*() {
      // Blank is unset: whatever the shell running the tests has.
      const run = yield* startAndStop({ NODE_ENV: "production", SMTP_HOST: "", TWILIO_ACCOUNT_SID: "" })
      const warnings = linesOf(run.stdout).map((line) => JSON.parse(line) as { logLevel: string; message: string })
        .filter((entry) => entry.logLevel === "WARN" && entry.message.includes("local mailbox"))
        .map((entry) => entry.message)
        .sort()
      const mailbox = join(run.dataDir, "mailbox")
      expect(warnings).toEqual([
        `email: local mailbox ${join(mailbox, "email")}: messages are written to this folder, not sent to people (set SMTP_HOST and MAIL_FROM to send through SMTP)`,
        `text messages: local mailbox ${join(mailbox, "sms")}: messages are written to this folder, not sent to people (set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM to send through Twilio)`
      ])
    }), slow)
})

describe("demo-tokens.json is created owner-only (0600)", () => {
  it.scopedLive("a world-readable tokens file left from an earlier database is replaced by an owner-only one", () =>
    Effect.gen(function*() {
      const run = yield* startAndStop({}, (dataDir) => {
        mkdirSync(dataDir, { recursive: true })
        writeFileSync(join(dataDir, "demo-tokens.json"), "{}", { mode: 0o644 })
      })
      expect(modeOf(run.tokensFile)).toBe(0o600)
      const tokens: Record<string, string> = JSON.parse(readFileSync(run.tokensFile, "utf8"))
      expect(tokens.ben).toMatch(tokenPattern)
      // Outside production the banner still prints ready-to-paste calls.
      expect(run.stderr).toContain(`Authorization: Bearer ${tokens.ben}`)
    }), slow)
})
