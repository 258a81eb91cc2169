import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { categories } from "@tks/domain/knowledge"
import { signalCodes } from "@tks/domain/maturity"
import { acmeCallerMatrix, badTokens, type CallerKind, callerKinds } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/maturity and /v1/category-health on the wire, for the whole caller
 * matrix. The levels, signals and recommendations themselves are core's
 * (packages/core/test/maturity.test.ts); here: who may call, that each
 * caller's numbers are those of what they can read, and the error bodies.
 * Levels that depend on freshness are not asserted: this server runs on the
 * real clock, and acme's content ages.
 */
const setup = acmeCallerMatrix

/** The live topics each caller can read in acme's engineering category, and in the organization. */
const readable: Record<CallerKind, { readonly engineering: number; readonly organization: number }> = {
  owner: { engineering: 3, organization: 4 },
  admin: { engineering: 3, organization: 4 },
  billingAdmin: { engineering: 3, organization: 4 },
  // Victor and Tara are on Ops: Team Runbooks, not Secrets (admins only).
  viewer: { engineering: 2, organization: 3 },
  teamAdmin: { engineering: 2, organization: 3 },
  // Ella is an external account on no team.
  external: { engineering: 0, organization: 0 },
  otherOrgAdmin: { engineering: 0, organization: 0 }
}

const topicCount = (body: { signals: ReadonlyArray<{ code: string; value: number }> }) =>
  body.signals.find((signal) => signal.code === "topicCount")?.value

layer(TestServerLive, { excludeTestServices: true })("GET /v1/maturity, /v1/category-health", (it) => {
  it.effect("every member reads the health list: the 14 categories in display order, scored from 3 readable topics", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of callerKinds) {
        const response = yield* raw("GET", "/v1/category-health", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json.nextCursor, kind).toBeNull()
        expect(response.json.data.map((row: { slug: string }) => row.slug), kind).toEqual(categories.map((c) => c.slug))
        const engineering = response.json.data.find((row: { slug: string }) => row.slug === "engineering")
        expect(engineering.topicCount, kind).toBe(readable[kind].engineering)
        // An admin reads three engineering topics and gets a level; the others read fewer, too few to score.
        expect(engineering.level === null, kind).toBe(readable[kind].engineering < 3)
        const facilities = response.json.data.find((row: { slug: string }) => row.slug === "facilities")
        expect(facilities.level, kind).toBeNull()
      }
    }))

  it.effect("every member reads maturity, counted over what they can read", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of callerKinds) {
        const organization = yield* raw("GET", "/v1/maturity", { token: tokens[kind] })
        expect(organization.status, kind).toBe(200)
        expect(organization.json.category, kind).toBeNull()
        expect(topicCount(organization.json), kind).toBe(readable[kind].organization)
        const engineering = yield* raw("GET", "/v1/maturity?categorySlug=engineering", { token: tokens[kind] })
        expect(engineering.status, kind).toBe(200)
        expect(engineering.json.category, kind).toEqual({ slug: "engineering", name: "Engineering" })
        expect(topicCount(engineering.json), kind).toBe(readable[kind].engineering)
        if (readable[kind].organization === 0) expect(organization.json.level, kind).toBe("UNDOCUMENTED")
      }
    }))

  it.effect("the typed client reads both, with signals and ranked recommendations", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const client = yield* clientFor(tokens.admin)
      const read = yield* client.maturity.get({ urlParams: { categorySlug: "engineering" } })
      expect(read.signals.map((signal) => signal.code)).toEqual([...signalCodes])
      expect(read.recommendations.map((r) => r.rank)).toEqual(read.recommendations.map((_, index) => index + 1))
      expect(read.recommendations.length > 0).toBe(read.level !== "OPTIMIZED")
      const strategy = yield* client.maturity.get({ urlParams: { categorySlug: "strategy" } })
      expect(strategy.level).toBe("UNDOCUMENTED")
      expect((yield* client.maturity.categoryHealth()).data).toHaveLength(14)
    }))

  it.effect("an unknown categorySlug is 400 with a JSON body naming the allowed slugs", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const slug of ["unknown", "Engineering", ""]) {
        const path = `/v1/maturity?categorySlug=${slug}`
        const response = yield* raw("GET", path, { token: tokens.viewer })
        expectError(response, 400, "VALIDATION_ERROR", path)
        for (const { slug: allowed } of categories) expect(response.json.message, path).toContain(`"${allowed}"`)
      }
    }))

  it.effect("no, a made-up, an expired or a revoked token is 401 on both reads", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const path of ["/v1/maturity", "/v1/maturity?categorySlug=engineering", "/v1/category-health"]) {
        for (const kind of badTokens) expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${path} ${kind}`)
      }
    }))
})
