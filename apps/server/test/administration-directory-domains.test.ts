import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { OrganizationDomains } from "@tks/core/organization-domains/service"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { once } from "./support/once.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/directory-sync/domains: the organization's verified email
 * domains as its admins read them. Adding and removing (the operator's
 * CLI), the stored form of a name and the exact match are core's
 * (organization-domains.test.ts); the wire body and the caller matrix are here.
 */
const setup = once(Effect.gen(function*() {
  const matrix = yield* acmeCallerMatrix
  const domains = yield* OrganizationDomains
  const operator = Caller.system("cli")
  const acme = OrganizationId.make(matrix.result.organizationId)
  // Added out of order and in other spellings: the answer is by stored name.
  const zeta = yield* domains.add(operator, acme, "Zeta.Acme.Example.")
  const idn = yield* domains.add(operator, acme, "bücher.acme.example")
  const alpha = yield* domains.add(operator, acme, "alpha.acme.example")
  yield* domains.add(operator, OrganizationId.make(matrix.other.organizationId), "other.example")
  return { tokens: matrix.tokens, added: [alpha, idn, zeta] }
}).pipe(Effect.orDie))

const organizationUpdaters: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const refused: ReadonlyArray<CallerKind> = ["viewer", "teamAdmin", "external"]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/directory-sync/domains", (it) => {
  it.effect("owner, admin and billing admin read the organization's domains by name, each with when it was verified and added; one page", () =>
    Effect.gen(function*() {
      const { added, tokens } = yield* setup
      for (const kind of organizationUpdaters) {
        const response = yield* raw("GET", "/v1/directory-sync/domains", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json, kind).toEqual({
          data: added.map((row) => ({ domain: row.domain, verifiedAt: row.verifiedAt, createdAt: row.createdAt })),
          nextCursor: null
        })
      }
      expect(added.map((row) => row.domain)).toEqual(["alpha.acme.example", "xn--bcher-kva.acme.example", "zeta.acme.example"])
    }))

  it.effect("viewer, team admin and external get 403 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of refused) {
        expectError(yield* raw("GET", "/v1/directory-sync/domains", { token: tokens[kind] }), 403, "FORBIDDEN", kind)
      }
    }))

  it.effect("another organization's admin sees only their own organization's domains", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const response = yield* raw("GET", "/v1/directory-sync/domains", { token: tokens.otherOrgAdmin })
      expect(response.status).toBe(200)
      expect(response.json.data.map((row: { domain: string }) => row.domain)).toEqual(["other.example"])
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", "/v1/directory-sync/domains", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))

  it.effect("a query parameter is 400 VALIDATION_ERROR naming it: the list takes none", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const response = yield* raw("GET", "/v1/directory-sync/domains?domain=alpha.acme.example", { token: tokens.admin })
      expectError(response, 400, "VALIDATION_ERROR")
      expect(JSON.stringify(response.json.issues)).toContain("domain")
    }))
})
