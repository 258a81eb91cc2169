import { SqlClient } from "@effect/sql"
import { Cache, Duration, Effect, Exit } from "effect"
import { AccessTokenVerifier } from "@tks/adapters/oauth/access-token-verifier"
import { BadRequest, BadRequestCode, InputIssue, NotFound, ServiceUnavailable, Unauthorized } from "@tks/domain/errors"
import type { OrganizationId } from "@tks/domain/ids"
import {
  DEFAULT_PERSON_CLAIM,
  defaultScopeMap,
  grantedScopes,
  issuerUrlProblem,
  mcpResourceUrl,
  type OAuthSettings,
  type OAuthSettingsAnswer,
  personClaimProblem,
  providerScopeProblem,
  providerScopes,
  providerScopesFor,
  resourceMetadataUrl,
  type ScopeMap
} from "@tks/domain/oauth"
import type { Access } from "@tks/domain/policy"
import type { Scope } from "@tks/domain/roles"
import { Authenticator } from "../auth/service.js"
import { PublicUrl } from "../common/links.js"
import { traced } from "../common/traced.js"
import { Journal } from "../journal/journal.js"
import { oauthSettingsAct } from "./settings-acts.js"
import { OAuthSettingsRepo, type OrganizationOAuthRow } from "./settings-repo.js"

/** What the operator sets; what is left out takes its default. */
export interface OAuthSettingsInput {
  readonly organizationId: OrganizationId
  readonly issuer: string
  readonly audience?: string | undefined
  readonly personClaim?: string | undefined
  readonly scopeMap?: ScopeMap | undefined
}

/** The Protected Resource Metadata document (RFC 9728 2) of an organization's MCP resource. */
export interface ProtectedResourceMetadata {
  readonly resource: string
  readonly authorization_servers?: ReadonlyArray<string>
  readonly scopes_supported: ReadonlyArray<string>
  readonly bearer_methods_supported: ReadonlyArray<string>
  readonly resource_name: string
}

/** What a refusal of the resource tells the client (its `WWW-Authenticate`): where the metadata is, which scopes to ask for. */
export interface ResourceChallenge {
  readonly resourceMetadata: string
  readonly scopesSupported: ReadonlyArray<string>
  /** The provider scopes that grant `scope` (with no provider: our own name). */
  readonly scopesGranting: (scope: Scope) => ReadonlyArray<string>
}

const rejected = new Unauthorized({ message: "The bearer token is missing, invalid, expired or revoked" })

const noSuchOrganization = () => new NotFound({ message: "No such organization" })

const AUDIENCE_MAX = 2_000

/** How long signing in trusts the settings it read (a change from another process takes this long at most). */
const SETTINGS_FOR = Duration.seconds(30)

/** Every problem of the input at once, one issue per field, as the HTTP edge answers bad input. */
const problemsOf = (input: OAuthSettingsInput): ReadonlyArray<InputIssue> => {
  const issues: Array<InputIssue> = []
  const issuer = issuerUrlProblem(input.issuer)
  if (issuer !== undefined) issues.push(new InputIssue({ path: "issuer", message: issuer }))
  if (input.audience !== undefined && (input.audience.trim() === "" || input.audience.length > AUDIENCE_MAX)) {
    issues.push(new InputIssue({ path: "audience", message: `the audience must be 1 to ${AUDIENCE_MAX} characters` }))
  }
  const claim = input.personClaim === undefined ? undefined : personClaimProblem(input.personClaim)
  if (claim !== undefined) issues.push(new InputIssue({ path: "personClaim", message: claim }))
  if (input.scopeMap !== undefined) {
    if (Object.keys(input.scopeMap).length === 0) {
      issues.push(new InputIssue({ path: "scopeMap", message: "the scope map names no scope; leave it out for the default" }))
    }
    for (const name of Object.keys(input.scopeMap)) {
      const problem = providerScopeProblem(name)
      if (problem !== undefined) issues.push(new InputIssue({ path: `scopeMap.${name}`, message: problem }))
    }
  }
  return issues
}

/**
 * An organization's MCP resource and the identity provider it trusts
 * (docs/mcp-oauth.md): the settings (set by the operator, read by the
 * organization's admins), the public metadata document, and signing a
 * person in with the provider's access token. The resource's address is
 * `{PUBLIC_URL}/mcp/{organizationId}`.
 */
export class OAuthResource extends Effect.Service<OAuthResource>()("@tks/core/OAuthResource", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* OAuthSettingsRepo
    const journal = yield* Journal
    const verifier = yield* AccessTokenVerifier
    const authenticator = yield* Authenticator
    const base = yield* Effect.orDie(PublicUrl)

    const resourceOf = (orgId: OrganizationId) => mcpResourceUrl(base, orgId)

    /**
     * The settings as signing in reads them, kept for SETTINGS_FOR: every
     * request of a signed-in assistant needs them, and they change rarely.
     * A change made here applies at once; one made by another process (the
     * CLI) within SETTINGS_FOR. A failed read is not kept.
     */
    const settingsForSignIn = yield* Cache.makeWith({
      capacity: 10_000,
      lookup: (orgId: OrganizationId) => repo.find(orgId),
      timeToLive: (exit) => (Exit.isSuccess(exit) ? SETTINGS_FOR : Duration.zero)
    })

    /** The settings with their defaults filled in, or null when the organization has none. */
    const effective = (orgId: OrganizationId, row: OrganizationOAuthRow): OAuthSettings | null =>
      row.issuer === null
        ? null
        : {
          issuer: row.issuer,
          audience: row.audience ?? resourceOf(orgId),
          personClaim: row.person_claim ?? DEFAULT_PERSON_CLAIM,
          scopeMap: row.scope_map ?? defaultScopeMap,
          // Set together with the issuer.
          updatedAt: row.updated_at!.toISOString()
        }

    const found = (orgId: OrganizationId) =>
      Effect.flatMap(repo.find(orgId), (row) => (row === undefined ? Effect.fail(noSuchOrganization()) : Effect.succeed(row)))

    /** Names (or renames) the organization's identity provider; the operator's act (the CLI), recorded with the old and new settings. */
    const set = traced("OAuthResource.set")(function*(input: OAuthSettingsInput) {
      const issues = problemsOf(input)
      if (issues.length > 0) {
        return yield* new BadRequest({
          code: BadRequestCode.validation,
          message: issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "),
          issues
        })
      }
      const orgId = input.organizationId
      const answer = yield* sql.withTransaction(Effect.gen(function*() {
        const before = yield* found(orgId)
        yield* repo.upsert({
          orgId,
          issuer: input.issuer,
          audience: input.audience ?? null,
          personClaim: input.personClaim ?? DEFAULT_PERSON_CLAIM,
          scopeMap: input.scopeMap ?? null
        })
        const after = yield* readFor(orgId)
        yield* journal.record(oauthSettingsAct(orgId, "oauth_settings.set", effective(orgId, before), after.settings))
        return after
      }))
      // After the commit: a sign-in in between would cache the settings being replaced.
      yield* settingsForSignIn.invalidate(orgId)
      return answer
    })

    /**
     * Forgets the organization's identity provider: only this service's
     * access tokens sign in again. True when one was set; clearing none
     * changes nothing and records nothing.
     */
    const clear = traced("OAuthResource.clear")(function*(orgId: OrganizationId) {
      const removed = yield* sql.withTransaction(Effect.gen(function*() {
        const before = yield* found(orgId)
        const removed = yield* repo.remove(orgId)
        if (removed) yield* journal.record(oauthSettingsAct(orgId, "oauth_settings.cleared", effective(orgId, before), null))
        return removed
      }))
      yield* settingsForSignIn.invalidate(orgId)
      return removed
    })

    const readFor = (orgId: OrganizationId) =>
      Effect.map(found(orgId), (row): OAuthSettingsAnswer => ({
        resource: resourceOf(orgId),
        resourceMetadataUrl: resourceMetadataUrl(base, orgId),
        settings: effective(orgId, row)
      }))

    /** GET /v1/oauth-settings, under policies.oauthSettings.get (organization admins): the caller's organization's. */
    const read = traced("OAuthResource.read")(function*(access: Access) {
      return yield* readFor(access.actor.organizationId)
    })

    /** The public metadata document of an organization's resource; NotFound for an unknown organization. */
    const metadata = traced("OAuthResource.metadata")(function*(orgId: OrganizationId) {
      const row = yield* found(orgId)
      const settings = effective(orgId, row)
      const document: ProtectedResourceMetadata = {
        resource: resourceOf(orgId),
        ...(settings === null ? {} : { authorization_servers: [settings.issuer] }),
        scopes_supported: providerScopes(settings?.scopeMap ?? defaultScopeMap),
        bearer_methods_supported: ["header"],
        resource_name: `${row.name} (Training and Knowledge Service)`
      }
      return document
    })

    /** What a refusal of the organization's resource says; for an unknown organization, what its metadata would (none is there). */
    const challenge = traced("OAuthResource.challenge")(function*(orgId: OrganizationId) {
      const row = yield* repo.find(orgId)
      const map = (row === undefined ? null : effective(orgId, row))?.scopeMap ?? defaultScopeMap
      const answer: ResourceChallenge = {
        resourceMetadata: resourceMetadataUrl(base, orgId),
        scopesSupported: providerScopes(map),
        scopesGranting: (scope) => providerScopesFor(scope, map)
      }
      return answer
    })

    /**
     * The person an identity provider's access token names, signed in to
     * `orgId`'s resource: the organization's provider must be set, the token
     * verified against it (signature, issuer, audience, expiry), its person
     * claim a string naming an active person of the organization by email.
     * The person is then the same `Actor` as with an access token, the
     * token's scopes mapped through the organization's map, and the request
     * counted against the person's default limit. A provider that cannot be
     * reached is 503 (nothing can be said of the token); anything else 401.
     */
    const authenticate = traced("OAuthResource.authenticate")(function*(orgId: OrganizationId, token: string) {
      const row = yield* settingsForSignIn.get(orgId)
      const settings = row === undefined ? null : effective(orgId, row)
      if (settings === null) return yield* rejected
      const claims = yield* verifier.verify(token, { issuer: settings.issuer, audience: settings.audience }).pipe(
        Effect.catchTags({
          TokenRejected: (refusal) =>
            Effect.zipRight(
              Effect.logInfo("identity provider token refused").pipe(Effect.annotateLogs({ organizationId: orgId, reason: refusal.reason })),
              rejected
            ),
          IssuerUnreachable: (failure) =>
            Effect.zipRight(
              Effect.logWarning("identity provider unreachable").pipe(
                Effect.annotateLogs({ organizationId: orgId, issuer: settings.issuer, reason: failure.reason })
              ),
              new ServiceUnavailable({ message: "The organization's identity provider could not be reached to check the token; retry shortly" })
            )
        })
      )
      const person = claims[settings.personClaim]
      if (typeof person !== "string") return yield* rejected
      return yield* authenticator.authenticatePerson(orgId, person, grantedScopes(claims, settings.scopeMap))
    })

    return { set, clear, read, metadata, challenge, authenticate } as const
  }),
  dependencies: [OAuthSettingsRepo.Default, AccessTokenVerifier.Default, Authenticator.Default, Journal.Default]
}) {}
