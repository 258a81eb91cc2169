import { expect, layer, vi } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { SignJWT } from "jose"
import { OAuthResource } from "@tks/core/oauth/service"
import { OrganizationId } from "@tks/domain/ids"
import { acmeCallerMatrix } from "./support/callers.js"
import { callTool, mcpClient, mcpInitialize, mcpPostHeaders } from "./support/mcp.js"
import { type LocalIssuer, localIssuer, signingKey } from "./support/oauth-issuer.js"
import { once } from "./support/once.js"
import { raw, TestServerLive } from "./support/server.js"

/** Two providers made here: acme's, and the other organization's (whose key set the rotation test counts alone). */
class Issuers extends Context.Tag("test/Issuers")<Issuers, { readonly acme: LocalIssuer; readonly other: LocalIssuer }>() {}

const IssuersLive = Layer.scoped(Issuers, Effect.all({ acme: localIssuer("acme"), other: localIssuer("other") }))

/** Both organizations name their provider (every default kept), through the service the CLI calls; once per file. */
const providers = once(Effect.gen(function*() {
  const matrix = yield* acmeCallerMatrix
  const issuers = yield* Issuers
  const resource = yield* OAuthResource
  const acme = yield* resource.set({ organizationId: OrganizationId.make(matrix.result.organizationId), issuer: issuers.acme.issuer })
  const other = yield* resource.set({ organizationId: OrganizationId.make(matrix.other.organizationId), issuer: issuers.other.issuer })
  return {
    matrix,
    issuers,
    acme: { path: `/mcp/${matrix.result.organizationId}`, audience: acme.settings!.audience },
    other: { path: `/mcp/${matrix.other.organizationId}`, audience: other.settings!.audience }
  }
}).pipe(Effect.orDie))


/** The status of an MCP mcpInitialize at `path` as the holder of `token`. */
const statusAt = (path: string, token: string) =>
  Effect.map(raw("POST", path, { token, body: mcpInitialize, headers: mcpPostHeaders }), (response) => response.status)

layer(Layer.merge(TestServerLive, IssuersLive), { excludeTestServices: true })("signing in to an organization's MCP resource with its identity provider's token", (it) => {
  it.scoped("a provider's token naming a person by email (in any case) lists the tools and gets the answers that person's access token gets", () =>
    Effect.gen(function*() {
      const { acme, issuers, matrix } = yield* providers
      const token = yield* issuers.acme.sign({ aud: acme.audience, email: "Victor@ACME.test", sub: "victor-at-the-provider" })
      const signedIn = yield* mcpClient(token, acme.path)
      const withToken = yield* mcpClient(matrix.tokens.viewer)
      const listed = yield* Effect.promise(() => signedIn.listTools())
      const listedWithToken = yield* Effect.promise(() => withToken.listTools())
      expect(listed.tools.map((tool) => tool.name)).toEqual(listedWithToken.tools.map((tool) => tool.name))
      const topicId = matrix.result.ids.topics.deploy!
      const call = yield* callTool(signedIn, "get_topic", { topicId })
      expect(call.isError).toBe(false)
      expect(call.structured).toEqual((yield* callTool(withToken, "get_topic", { topicId })).structured)
      // The external account may not read the org chart, however they sign in.
      const external = yield* mcpClient(yield* issuers.acme.sign({ aud: acme.audience, email: "ella@acme.test" }), acme.path)
      expect(yield* callTool(external, "list_company_roles", {})).toMatchObject({ isError: true, structured: { code: "FORBIDDEN" } })
    }))

  it.effect("access tokens keep signing in on the organization's resource; another organization's access token is 401", () =>
    Effect.gen(function*() {
      const { acme, matrix } = yield* providers
      expect(yield* statusAt(acme.path, matrix.tokens.viewer)).toBe(200)
      expect(yield* statusAt(acme.path, matrix.tokens.otherOrgAdmin)).toBe(401)
      expect(yield* statusAt(acme.path, matrix.tokens.revoked!)).toBe(401)
    }))

  it.effect("a provider's token on plain /mcp is 401: there is no organization to check it against", () =>
    Effect.gen(function*() {
      const { acme, issuers } = yield* providers
      expect(yield* statusAt("/mcp", yield* issuers.acme.sign({ aud: acme.audience, email: "victor@acme.test" }))).toBe(401)
    }))

  it.effect("a token for another audience, from another issuer or organization, expired, signed with an unknown key or a shared secret is 401", () =>
    Effect.gen(function*() {
      const { acme, issuers, other } = yield* providers
      const victor = { aud: acme.audience, email: "victor@acme.test" }
      expect(yield* statusAt(acme.path, yield* issuers.acme.sign(victor))).toBe(200)
      const stranger = yield* signingKey("stranger")
      const refused = {
        "another audience": yield* issuers.acme.sign({ ...victor, aud: "https://elsewhere.example/mcp" }),
        "the other organization's resource": yield* issuers.acme.sign({ ...victor, aud: other.audience }),
        "another issuer": yield* issuers.acme.sign({ ...victor, iss: issuers.other.issuer }),
        "expired past the tolerance": yield* issuers.acme.sign(victor, { expiresIn: Math.floor(Date.now() / 1000) - 120 }),
        "an unknown key id": yield* issuers.acme.sign(victor, { key: stranger }),
        "a shared secret (HS256)": yield* Effect.promise(() =>
          new SignJWT({ ...victor, iss: issuers.acme.issuer })
            .setProtectedHeader({ alg: "HS256", kid: issuers.acme.current().kid })
            .setExpirationTime("1h")
            .sign(new TextEncoder().encode("a-secret-the-provider-never-had-32b"))
        ),
        "not a token at all": "not.a.jwt"
      }
      for (const [why, token] of Object.entries(refused)) expect(yield* statusAt(acme.path, token), why).toBe(401)
      // Acme's token on the other organization's resource: that resource trusts another issuer.
      expect(yield* statusAt(other.path, yield* issuers.acme.sign({ ...victor, aud: other.audience }))).toBe(401)
    }))

  it.effect("a token naming someone who has left, nobody in the organization, or no one (no email claim) is 401", () =>
    Effect.gen(function*() {
      const { acme, issuers } = yield* providers
      for (const claims of [{ email: "dora@acme.test" }, { email: "nobody@acme.test" }, { email: "otto@other.test" }, { sub: "victor" }]) {
        expect(yield* statusAt(acme.path, yield* issuers.acme.sign({ aud: acme.audience, ...claims })), JSON.stringify(claims)).toBe(401)
      }
    }))

  it.effect("a rotated key is fetched on its first token once the last read is a minute old; a second unknown key within the minute is not", () =>
    Effect.gen(function*() {
      const { issuers, other } = yield* providers
      const otto = { aud: other.audience, email: "otto@other.test" }
      expect(yield* statusAt(other.path, yield* issuers.other.sign(otto))).toBe(200)
      const readsBefore = issuers.other.keySetReads()
      expect(readsBefore).toBeGreaterThanOrEqual(1)
      const rotated = yield* signingKey("other-2")
      issuers.other.publish([rotated])
      // The clock a minute and a second on: the key set's cooldown is over.
      const now = Date.now
      const later = vi.spyOn(Date, "now").mockImplementation(() => now.call(Date) + 61_000)
      try {
        expect(yield* statusAt(other.path, yield* issuers.other.sign(otto, { key: rotated }))).toBe(200)
        expect(issuers.other.keySetReads()).toBe(readsBefore + 1)
        const unknown = yield* signingKey("other-3")
        expect(yield* statusAt(other.path, yield* issuers.other.sign(otto, { key: unknown }))).toBe(401)
        expect(issuers.other.keySetReads()).toBe(readsBefore + 1)
      } finally {
        later.mockRestore()
      }
    }))
})
