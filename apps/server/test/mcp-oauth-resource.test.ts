import { expect, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { OAuthResource } from "@tks/core/oauth/service"
import type { Actor } from "@tks/domain/actor"
import { OrganizationId, UserId } from "@tks/domain/ids"
import type { ToolCallers } from "@tks/mcp/authorization"
import { mcpCallers } from "../src/tools/mcp-callers.js"
import { acmeCallerMatrix } from "./support/callers.js"
import { mcpInitialize, mcpPostHeaders } from "./support/mcp.js"
import { once } from "./support/once.js"
import { raw, TestServerLive } from "./support/server.js"

const ISSUER = "https://login.example.test/realms/acme"
const scopeMap = { "tks.assign": ["training:assign"], "tks.write": ["content:write", "narration:synthesize"] } as const

/**
 * Acme names a provider (a custom audience-free setting with its own scope
 * map) through the service the CLI calls; the other organization names none.
 * Once per file.
 */
const setup = once(Effect.gen(function*() {
  const matrix = yield* acmeCallerMatrix
  const resource = yield* OAuthResource
  const acmeId = OrganizationId.make(matrix.result.organizationId)
  const otherId = OrganizationId.make(matrix.other.organizationId)
  const settingsBefore = yield* raw("GET", "/v1/oauth-settings", { token: matrix.tokens.admin })
  yield* resource.set({ organizationId: acmeId, issuer: ISSUER, personClaim: "preferred_username", scopeMap })
  return { matrix, acmeId, otherId, settingsBefore }
}).pipe(Effect.orDie))

const metadataPath = (organizationId: string) => `/.well-known/oauth-protected-resource/mcp/${organizationId}`


/** A well-formed JWT from a key nobody trusts. */
const strangerToken = (claims: Record<string, unknown>) =>
  Effect.promise(async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256")
    const kid = (await exportJWK(publicKey)).x!
    return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid }).setExpirationTime("1h").sign(privateKey)
  })

layer(TestServerLive, { excludeTestServices: true })("an organization's MCP resource, its metadata and its identity provider settings", (it) => {
  it.effect("the metadata document names the resource, the scopes and header bearers; the provider only once one is set", () =>
    Effect.gen(function*() {
      const { matrix } = yield* setup
      const withProvider = yield* raw("GET", metadataPath(matrix.result.organizationId))
      expect(withProvider.status).toBe(200)
      expect(withProvider.headers.get("cache-control")).toBe("public, max-age=60")
      expect(withProvider.json).toEqual({
        resource: expect.stringMatching(new RegExp(`/mcp/${matrix.result.organizationId}$`)),
        authorization_servers: [ISSUER],
        scopes_supported: ["tks.assign", "tks.write"],
        bearer_methods_supported: ["header"],
        resource_name: expect.stringContaining("Acme")
      })
      const without = yield* raw("GET", metadataPath(matrix.other.organizationId))
      expect(without.status).toBe(200)
      expect(without.json).not.toHaveProperty("authorization_servers")
      expect(without.json).toMatchObject({
        resource: expect.stringMatching(new RegExp(`/mcp/${matrix.other.organizationId}$`)),
        scopes_supported: ["content:write", "narration:synthesize", "training:assign"],
        bearer_methods_supported: ["header"]
      })
      const unknown = yield* raw("GET", metadataPath("org_nobody"))
      expect(unknown.status).toBe(404)
      expect(unknown.json).toMatchObject({ code: "NOT_FOUND" })
    }))

  it.effect("a 401 of the resource names its metadata and scopes in WWW-Authenticate; plain /mcp keeps the bare challenge", () =>
    Effect.gen(function*() {
      const { matrix } = yield* setup
      const resource = `/mcp/${matrix.result.organizationId}`
      const metadata = (yield* raw("GET", "/v1/oauth-settings", { token: matrix.tokens.admin })).json.resourceMetadataUrl
      expect(metadata).toMatch(new RegExp(`${metadataPath(matrix.result.organizationId)}$`))
      const none = yield* raw("POST", resource, { body: mcpInitialize, headers: mcpPostHeaders })
      expect(none.status).toBe(401)
      expect(none.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata}", scope="tks.assign tks.write"`)
      expect(none.json).toMatchObject({ code: "UNAUTHORIZED" })
      // Not a token at all: refused before anything is fetched from the provider (which this test does not run).
      const bad = yield* raw("POST", resource, { token: "not.a.jwt", body: mcpInitialize, headers: mcpPostHeaders })
      expect(bad.status).toBe(401)
      expect(bad.headers.get("www-authenticate")).toBe(
        `Bearer error="invalid_token", resource_metadata="${metadata}", scope="tks.assign tks.write"`
      )
      const plain = yield* raw("POST", "/mcp", { body: mcpInitialize, headers: mcpPostHeaders })
      expect(plain.headers.get("www-authenticate")).toBe("Bearer")
      for (const method of ["GET", "DELETE"]) {
        const wrong = yield* raw(method, resource, { token: matrix.tokens.viewer })
        expect(wrong.status, method).toBe(405)
      }
    }))

  it.effect("an organization without a provider refuses every token that is not one of its access tokens", () =>
    Effect.gen(function*() {
      const { matrix } = yield* setup
      const token = yield* strangerToken({ iss: ISSUER, email: "otto@other.test" })
      const refused = yield* raw("POST", `/mcp/${matrix.other.organizationId}`, { token, body: mcpInitialize, headers: mcpPostHeaders })
      expect(refused.status).toBe(401)
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token", resource_metadata="[^"]+", scope="content:write narration:synthesize training:assign"$/)
      const otto = yield* raw("POST", `/mcp/${matrix.other.organizationId}`, { token: matrix.tokens.otherOrgAdmin, body: mcpInitialize, headers: mcpPostHeaders })
      expect(otto.status).toBe(200)
    }))

  it.effect("a tool call lacking its scope on the resource is 403 INSUFFICIENT_SCOPE, naming the provider scopes that grant it", () =>
    Effect.gen(function*() {
      const { acmeId, matrix } = yield* setup
      const resource = yield* OAuthResource
      // No tool of today's catalog needs a scope (they all read): the check is given one that does.
      const callers = {
        scopeLacked: (actor: Actor, body: unknown) =>
          (body as { params: { name: string } }).params.name === "assign_everyone" && !actor.scopes.includes("training:assign")
            ? "training:assign"
            : undefined,
        challengeOf: resource.challenge
      } as unknown as ToolCallers
      const gate = mcpCallers(callers)
      const actor: Actor = {
        organizationId: acmeId,
        userId: UserId.make(matrix.userIds.teamAdmin),
        role: "viewer",
        teams: [],
        scopes: [],
        tokenId: null
      }
      const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "assign_everyone", arguments: {} } }
      const refused = yield* Effect.flip(gate.checkScope(actor, call, acmeId))
      expect(refused.status).toBe(403)
      const metadata = (yield* resource.challenge(acmeId)).resourceMetadata
      expect(refused.headers["www-authenticate"]).toBe(`Bearer error="insufficient_scope", resource_metadata="${metadata}", scope="tks.assign"`)
      const body = refused.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(refused.body.body)) : undefined
      expect(body).toMatchObject({ _tag: "Forbidden", code: "INSUFFICIENT_SCOPE", message: expect.stringContaining("training:assign") })
      // With the scope, or on plain /mcp (where the tool refuses on its own), the request goes on.
      expect(Exit.isSuccess(yield* Effect.exit(gate.checkScope({ ...actor, scopes: ["training:assign"] }, call, acmeId)))).toBe(true)
      expect(Exit.isSuccess(yield* Effect.exit(gate.checkScope(actor, call, undefined)))).toBe(true)
    }))

  it.effect("GET /v1/oauth-settings: organization admins read the resource and the settings with their defaults (null before any); others 403", () =>
    Effect.gen(function*() {
      const { matrix, settingsBefore } = yield* setup
      expect(settingsBefore.status).toBe(200)
      expect(settingsBefore.json).toEqual({
        resource: expect.stringMatching(new RegExp(`/mcp/${matrix.result.organizationId}$`)),
        resourceMetadataUrl: expect.stringMatching(new RegExp(`${metadataPath(matrix.result.organizationId)}$`)),
        settings: null
      })
      for (const caller of ["owner", "admin", "billingAdmin"] as const) {
        const read = yield* raw("GET", "/v1/oauth-settings", { token: matrix.tokens[caller] })
        expect(read.status, caller).toBe(200)
        expect(read.json.settings, caller).toEqual({
          issuer: ISSUER,
          audience: read.json.resource,
          personClaim: "preferred_username",
          scopeMap,
          updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)
        })
      }
      for (const caller of ["viewer", "external", "teamAdmin"] as const) {
        const refused = yield* raw("GET", "/v1/oauth-settings", { token: matrix.tokens[caller] })
        expect(refused.status, caller).toBe(403)
        expect(refused.json, caller).toMatchObject({ code: "FORBIDDEN" })
      }
      // Another organization's admin reads their own organization's: none set.
      const other = yield* raw("GET", "/v1/oauth-settings", { token: matrix.tokens.otherOrgAdmin })
      expect(other.json).toMatchObject({ resource: expect.stringMatching(new RegExp(`/mcp/${matrix.other.organizationId}$`)), settings: null })
      expect((yield* raw("GET", "/v1/oauth-settings")).status).toBe(401)
    }))

  it.effect("setting a provider checks every field at once; an unknown organization is not found; clearing forgets it", () =>
    Effect.gen(function*() {
      const { otherId } = yield* setup
      const resource = yield* OAuthResource
      const bad = yield* Effect.flip(resource.set({
        organizationId: otherId,
        issuer: "http://login.example.test/realms/acme",
        audience: " ",
        personClaim: "e mail",
        scopeMap: { "has space": ["content:write"] }
      }))
      expect(bad).toMatchObject({ _tag: "BadRequest", code: "VALIDATION_ERROR" })
      expect((bad as { issues: ReadonlyArray<{ path: string }> }).issues.map((issue) => issue.path)).toEqual([
        "issuer",
        "audience",
        "personClaim",
        "scopeMap.has space"
      ])
      for (const issuer of ["login.example.test", "ftp://login.example.test", "https://login.example.test/?tenant=1"]) {
        expect(yield* Effect.flip(resource.set({ organizationId: otherId, issuer })), issuer).toMatchObject({ code: "VALIDATION_ERROR" })
      }
      expect(yield* Effect.flip(resource.set({ organizationId: OrganizationId.make("org_nobody"), issuer: ISSUER }))).toMatchObject({
        _tag: "NotFound"
      })
      const set = yield* resource.set({ organizationId: otherId, issuer: "http://127.0.0.1:9/realms/loopback", audience: "api://tks" })
      expect(set.settings).toMatchObject({ issuer: "http://127.0.0.1:9/realms/loopback", audience: "api://tks", personClaim: "email" })
      expect(yield* resource.clear(otherId)).toBe(true)
      expect((yield* resource.metadata(otherId)).authorization_servers).toBeUndefined()
      expect(yield* resource.clear(otherId)).toBe(false)
    }))
})
