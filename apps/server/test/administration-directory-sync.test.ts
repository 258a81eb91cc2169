import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

/**
 * Acme's ACTIVE connection. When a directory token is active and which plan
 * is eligible are core's rules (administration-service.test.ts); the wire
 * body, its dates and the caller matrix are here.
 */
const setup = acmeCallerMatrix

/** An organization of its own with one owner token and this directory connection. */
const orgWithConnection = (
  name: string,
  plan: "starter" | "pro" | "enterprise",
  connection: NonNullable<OrgFixtureInput["directory"]>["connection"]
) =>
  importFixture({
    organization: { name, plan },
    people: [{ key: "boss", name: `${name} Boss`, email: `boss@${plan}.test`, role: "owner", tokenScopes: [] }],
    directory: { connection }
  }).pipe(Effect.map((result) => result.tokens.boss!))

const organizationUpdaters: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const refused: ReadonlyArray<CallerKind> = ["viewer", "teamAdmin", "external"]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/directory-sync", (it) => {
  it.effect("owner, admin and billing admin read the connection with every field of the contract", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of organizationUpdaters) {
        const response = yield* raw("GET", "/v1/directory-sync", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json, kind).toEqual({
          eligible: true,
          connection: {
            status: "ACTIVE",
            tokenCreatedAt: "2026-01-05T10:00:00.000Z",
            tokenLastUsedAt: "2026-06-08T09:00:00.000Z",
            tokenExpiresAt: "2999-01-01T00:00:00.000Z",
            tokenActive: true,
            lastSyncAt: "2026-06-08T09:00:00.000Z",
            pausedAt: null,
            pausedReason: null,
            sendWelcomeImmediately: true,
            countProvisioned: 12,
            countUpdated: 5,
            countDeactivated: 2,
            countSkipped: 1,
            createdAt: "2026-01-05T09:59:00.000Z"
          }
        })
      }
    }))

  it.effect("viewer, team admin and external get 403 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of refused) expectError(yield* raw("GET", "/v1/directory-sync", { token: tokens[kind] }), 403, "FORBIDDEN", kind)
    }))

  it.effect("a paused connection with a token of no expiry: tokenExpiresAt null, tokenActive true, pausedAt and pausedReason given", () =>
    Effect.gen(function*() {
      const token = yield* orgWithConnection("Paused Org", "starter", {
        status: "PAUSED",
        tokenCreatedAt: "2026-01-01T00:00:00.000Z",
        pausedAt: "2026-03-01T00:00:00.000Z",
        pausedReason: "Too many rejected requests"
      })
      const view = yield* (yield* clientFor(token)).administration.directorySync()
      expect(view).toMatchObject({
        eligible: false,
        connection: {
          status: "PAUSED",
          tokenExpiresAt: null,
          tokenActive: true,
          pausedAt: "2026-03-01T00:00:00.000Z",
          pausedReason: "Too many rejected requests",
          sendWelcomeImmediately: false,
          countProvisioned: 0
        }
      })
    }))

  it.effect("a connection set up without a token yet: tokenActive false, token dates null", () =>
    Effect.gen(function*() {
      const token = yield* orgWithConnection("Pending Org", "enterprise", { status: "PENDING" })
      const view = yield* (yield* clientFor(token)).administration.directorySync()
      expect(view.connection).toMatchObject({
        status: "PENDING",
        tokenActive: false,
        tokenCreatedAt: null,
        tokenLastUsedAt: null,
        tokenExpiresAt: null,
        lastSyncAt: null
      })
    }))

  it.effect("another organization's admin, never set up, sees their own: not eligible, connection null", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const response = yield* raw("GET", "/v1/directory-sync", { token: tokens.otherOrgAdmin })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({ eligible: false, connection: null })
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* raw("GET", "/v1/directory-sync", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
    }))
})
