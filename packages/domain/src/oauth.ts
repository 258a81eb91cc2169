import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { Scope } from "./roles.js"

/**
 * An organization's identity provider, for signing in to its MCP resource
 * with the provider's access tokens (docs/mcp-oauth.md): who issues them,
 * for which audience, which claim names the person, and which of the
 * provider's scopes grant which of ours.
 */

/** The claim that names the person when none is chosen: matched to the person's email in the organization. */
export const DEFAULT_PERSON_CLAIM = "email"

/** From a provider's scope to the scopes of ours it grants (one or more). */
export const ScopeMap = Schema.Record({ key: Schema.String, value: Schema.NonEmptyArray(Scope) }).annotations({
  identifier: "ScopeMap",
  description: "From a scope of the identity provider to the scopes of this service it grants."
})
export type ScopeMap = typeof ScopeMap.Type

/** When no map is chosen, each of our scope names grants itself. */
export const defaultScopeMap: ScopeMap = Object.fromEntries(Scope.literals.map((scope) => [scope, [scope]] as const))

export const OAuthSettings = Schema.Struct({
  issuer: Schema.String.annotations({ description: "The identity provider's issuer URL, exactly as its tokens' `iss` claim says it." }),
  audience: Schema.String.annotations({
    description: "What the tokens' `aud` claim must hold: the organization's MCP resource URL unless another was chosen."
  }),
  personClaim: Schema.String.annotations({
    description: "The claim whose value is matched, case-insensitively, to the email of a person in the organization."
  }),
  scopeMap: ScopeMap,
  updatedAt: Timestamp.annotations({ description: "When the settings were last set (ISO 8601 in UTC with milliseconds)." })
}).annotations({ identifier: "OAuthSettings" })
export type OAuthSettings = typeof OAuthSettings.Type

export const OAuthSettingsAnswer = Schema.Struct({
  resource: Schema.String.annotations({ description: "The organization's MCP resource URL: `{PUBLIC_URL}/mcp/{organizationId}`." }),
  resourceMetadataUrl: Schema.String.annotations({ description: "Where its Protected Resource Metadata (RFC 9728) is published." }),
  settings: Schema.NullOr(OAuthSettings).annotations({
    description: "The identity provider's settings, with the defaults filled in; null when none is set (only this service's access tokens sign in)."
  })
}).annotations({ identifier: "OAuthSettingsAnswer" })
export type OAuthSettingsAnswer = typeof OAuthSettingsAnswer.Type

/** The MCP resource of an organization, under the service's public address (no trailing slash). */
export const mcpResourceUrl = (base: string, organizationId: string): string =>
  `${base}/mcp/${encodeURIComponent(organizationId)}`

/** Where the resource's metadata is published (RFC 9728 3.1: the well-known segment before the resource's path). */
export const resourceMetadataUrl = (base: string, organizationId: string): string =>
  `${base}/.well-known/oauth-protected-resource/mcp/${encodeURIComponent(organizationId)}`

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"])
const isLoopbackHost = (hostname: string) => LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname)

/**
 * Why `text` cannot be an issuer or a key-set address, or undefined when it
 * can: an absolute https URL without query or fragment; plain http only
 * for a loopback host (a provider run on the same machine).
 */
export const issuerUrlProblem = (text: string): string | undefined => {
  if (!URL.canParse(text)) return `"${text}" is not an absolute URL`
  const url = new URL(text)
  if (url.protocol !== "https:" && url.protocol !== "http:") return `"${text}" is not an http(s) URL`
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return `"${text}" must use https (plain http only for a loopback host such as 127.0.0.1 or localhost)`
  }
  if (url.search !== "" || url.hash !== "") return `"${text}" must have no query or fragment`
  if (url.username !== "" || url.password !== "") return `"${text}" must carry no user name or password`
  return undefined
}

/** Why `claim` cannot name the person, or undefined: a claim name, not empty, no spaces. */
export const personClaimProblem = (claim: string): string | undefined =>
  /^[^\s"]{1,100}$/.test(claim) ? undefined : `"${claim}" is not a claim name (1 to 100 characters, no spaces or quotes)`

/** Why a provider's scope cannot be a key of the map, or undefined (RFC 6749 3.3: no spaces, quotes or backslashes). */
export const providerScopeProblem = (scope: string): string | undefined =>
  /^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/.test(scope) ? undefined : `"${scope}" is not a scope name (printable, no spaces, quotes or backslashes)`

/**
 * The scopes a token's claims grant: `scope` (a space-separated string,
 * RFC 9068; Keycloak, Auth0) and `scp` (Entra ID's string, Okta's array),
 * each provider scope mapped through `map`; unknown ones grant nothing. A
 * map key that is a URI (`api://<application>/assign`, what a client asks
 * Entra ID for) also matches its last segment (`assign`, what Entra ID
 * writes in `scp`).
 */
export const grantedScopes = (claims: Readonly<Record<string, unknown>>, map: ScopeMap): ReadonlyArray<Scope> => {
  const named = new Set<string>()
  for (const claim of [claims.scope, claims.scp]) {
    if (typeof claim === "string") for (const name of claim.split(" ")) named.add(name)
    if (Array.isArray(claim)) for (const name of claim) if (typeof name === "string") named.add(name)
  }
  const granted = new Set<Scope>()
  for (const key of Object.keys(map)) {
    const slash = key.lastIndexOf("/")
    if (named.has(key) || (slash !== -1 && named.has(key.slice(slash + 1)))) for (const scope of map[key]!) granted.add(scope)
  }
  return Scope.literals.filter((scope) => granted.has(scope))
}

/** The provider's scopes the map names, in a stable order (what the metadata's `scopes_supported` lists). */
export const providerScopes = (map: ScopeMap): ReadonlyArray<string> => Object.keys(map).sort()

/** The provider's scopes that grant `scope` (what a client should ask its provider for). */
export const providerScopesFor = (scope: Scope, map: ScopeMap): ReadonlyArray<string> =>
  providerScopes(map).filter((name) => map[name]!.includes(scope))
