import { describe, expect, it } from "@effect/vitest"
import { resourceChallenge } from "../src/bearer.js"
import {
  defaultScopeMap,
  grantedScopes,
  issuerUrlProblem,
  mcpResourceUrl,
  providerScopes,
  providerScopesFor,
  resourceMetadataUrl
} from "../src/oauth.js"

describe("an organization's identity provider", () => {
  it("an issuer is an https URL, or http on a loopback host, without query, fragment or credentials", () => {
    for (const ok of ["https://login.microsoftonline.com/tenant/v2.0", "https://tenant.auth0.com/", "http://127.0.0.1:8080/realms/acme", "http://localhost:8080/realms/a", "http://[::1]:9000"]) {
      expect(issuerUrlProblem(ok), ok).toBeUndefined()
    }
    for (const bad of ["login.example.com", "http://login.example.com", "ftp://login.example.com", "https://x.test/?a=1", "https://x.test/#f", "https://u:p@x.test", "http://127.0.0.1.evil.test"]) {
      expect(issuerUrlProblem(bad), bad).toBeDefined()
    }
  })

  it("a token's scopes come from `scope` (a string) and `scp` (a string or an array), each through the map; unknown ones grant nothing", () => {
    const map = { "api://tks/assign": ["training:assign"], write: ["content:write", "narration:synthesize"] } as const
    expect(grantedScopes({ scope: "openid write profile" }, map)).toEqual(["content:write", "narration:synthesize"])
    expect(grantedScopes({ scp: "api://tks/assign" }, map)).toEqual(["training:assign"])
    expect(grantedScopes({ scp: ["write", "api://tks/assign"] }, map)).toEqual(["training:assign", "content:write", "narration:synthesize"])
    expect(grantedScopes({ scope: "training:assign" }, map)).toEqual([])
    expect(grantedScopes({ scope: "training:assign content:write admin" }, defaultScopeMap)).toEqual(["training:assign", "content:write"])
    expect(grantedScopes({ scope: "constructor toString" }, defaultScopeMap)).toEqual([])
    // Entra ID writes the scope without the application ID URI the client asked for.
    expect(grantedScopes({ scp: "assign" }, map)).toEqual(["training:assign"])
    expect(grantedScopes({ scp: "tks/assign" }, map)).toEqual([])
  })

  it("the provider scopes that grant one of ours, and the challenge naming them and the metadata", () => {
    const map = { b: ["content:write"], a: ["content:write", "training:assign"] } as const
    expect(providerScopes(map)).toEqual(["a", "b"])
    expect(providerScopesFor("content:write", map)).toEqual(["a", "b"])
    expect(providerScopesFor("narration:synthesize", map)).toEqual([])
    const metadata = resourceMetadataUrl("https://tks.example", "org_1")
    expect(mcpResourceUrl("https://tks.example", "org_1")).toBe("https://tks.example/mcp/org_1")
    expect(metadata).toBe("https://tks.example/.well-known/oauth-protected-resource/mcp/org_1")
    expect(resourceChallenge({ resourceMetadata: metadata, scopes: ["a", "b"] })).toBe(`Bearer resource_metadata="${metadata}", scope="a b"`)
    expect(resourceChallenge({ error: "insufficient_scope", resourceMetadata: metadata, scopes: [] })).toBe(
      `Bearer error="insufficient_scope", resource_metadata="${metadata}"`
    )
  })
})
