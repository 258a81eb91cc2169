import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Exit, Layer, Stream } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { RequestOrigin } from "@tks/domain/request-origin"
import { Authenticator } from "../src/auth/service.js"
import { JournalReads } from "../src/journal/reads.js"
import { OAuthResource } from "../src/oauth/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"

/**
 * The acts the operator does as the system (docs/domain.md, Events and the
 * audit log): issuing and revoking tokens, naming and forgetting the
 * identity provider, importing an organization. Each is one audit row in
 * its own transaction, never with a secret in it; a refused act records
 * nothing.
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, Authenticator.Default, OAuthResource.Default, JournalReads.Default).pipe(
  Layer.provideMerge(TestDatabaseLive)
)

const operator = Caller.system("cli")
const cliOrigin = { transport: "cli", requestId: null, clientIp: null, userAgent: "tks-cli" } as const

/** The organization's audit rows, oldest first. */
const log = (orgId: string) =>
  Effect.flatMap(JournalReads, (reads) => Stream.runCollect(reads.auditExport({ orgId, since: null, until: null }))).pipe(
    Effect.map(Chunk.toArray),
    Effect.orDie
  )

const setup = Effect.gen(function*() {
  const importer = yield* FixtureImporter
  const result = yield* importer.importOrganization({
    organization: { name: "Operated", plan: "enterprise" },
    people: [
      { key: "ann", name: "Ann Admin", email: "ann@operated.test", role: "admin", tokenScopes: ["training:assign"] },
      { key: "gone", name: "Gil Gone", email: "gil@operated.test", role: "viewer", status: "DEACTIVATED" }
    ],
    teams: [{ key: "ops", name: "Ops", members: [{ person: "ann" }] }]
  }).pipe(Effect.orDie)
  return { result, orgId: OrganizationId.make(result.organizationId) }
})

layer(TestLayer)("the operator's acts in the journal", (it) => {
  it.effect("an import is one organization.imported row naming the organization, with its name, plan and the rows made (tokens counted, never shown)", () =>
    Effect.gen(function*() {
      const { orgId, result } = yield* setup
      const rows = yield* log(orgId)
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({
        action: "organization.imported",
        actor: { type: "system", name: "cli" },
        targets: [{ type: "organization", id: orgId }],
        changes: {
          name: { new: "Operated" },
          plan: { new: "enterprise" },
          counts: { new: { users: 2, teams: 1, team_members: 1, access_tokens: 1 } }
        }
      })
      expect(JSON.stringify(rows)).not.toContain(result.tokens.ann!)
    }))

  describe("tokens", () => {
    it.effect("issuing records access_token.issued with the token's name, scopes and expiry, and where the command came from; never the token", () =>
      Effect.gen(function*() {
        const { orgId, result } = yield* setup
        const auth = yield* Authenticator
        const expiresAt = new Date("2031-03-04T05:06:07.000Z")
        const issued = yield* auth.issue(operator, {
          organizationId: orgId,
          userId: UserId.make(result.ids.people.ann!),
          scopes: ["content:write", "training:assign"],
          expiresAt,
          name: "laptop"
        }).pipe(Effect.provideService(RequestOrigin, cliOrigin))
        const [, row] = yield* log(orgId)
        expect(row).toEqual({
          id: expect.stringMatching(/^aud_/),
          occurredAt: expect.any(String),
          action: "access_token.issued",
          actor: { type: "system", name: "cli" },
          targets: [{ type: "access_token", id: issued.id }, { type: "person", id: result.ids.people.ann }],
          changes: {
            name: { new: "laptop" },
            scopes: { new: ["content:write", "training:assign"] },
            expiresAt: { new: "2031-03-04T05:06:07.000Z" }
          },
          requestId: null,
          clientIp: null,
          userAgent: "tks-cli"
        })
        expect(JSON.stringify(row)).not.toContain(issued.token)
      }))

    it.effect("revoking records access_token.revoked; a token refused (a person who left) or an unknown one to revoke records nothing", () =>
      Effect.gen(function*() {
        const { orgId, result } = yield* setup
        const auth = yield* Authenticator
        const refused = yield* Effect.exit(auth.issue(operator, { organizationId: orgId, userId: UserId.make(result.ids.people.gone!), scopes: [] }))
        expect(Exit.isFailure(refused)).toBe(true)
        const tokenId = AccessTokenId.make(result.tokenIds.ann!)
        yield* auth.revoke(operator, tokenId)
        expect(Exit.isFailure(yield* Effect.exit(auth.revoke(operator, tokenId)))).toBe(true)
        const rows = yield* log(orgId)
        expect(rows.map((row) => row.action)).toEqual(["organization.imported", "access_token.revoked"])
        expect(rows[1]).toMatchObject({
          actor: { type: "system", name: "cli" },
          targets: [{ type: "access_token", id: tokenId }, { type: "person", id: result.ids.people.ann }],
          changes: { revoked: { old: false, new: true } }
        })
      }))
  })

  describe("the identity provider", () => {
    it.effect("setting records oauth_settings.set with the old and new settings; clearing records them going; clearing none records nothing", () =>
      Effect.gen(function*() {
        const { orgId } = yield* setup
        const oauth = yield* OAuthResource
        const answer = yield* oauth.set({ organizationId: orgId, issuer: "https://login.operated.test/realms/one" })
        yield* oauth.set({ organizationId: orgId, issuer: "https://login.operated.test/realms/two", personClaim: "upn" })
        expect(yield* oauth.clear(orgId)).toBe(true)
        expect(yield* oauth.clear(orgId)).toBe(false)
        const rows = (yield* log(orgId)).slice(1)
        expect(rows.map((row) => row.action)).toEqual(["oauth_settings.set", "oauth_settings.set", "oauth_settings.cleared"])
        const defaults = { audience: answer.resource, personClaim: "email", scopeMap: answer.settings!.scopeMap }
        expect(rows[0]!.changes).toEqual({
          issuer: { old: null, new: "https://login.operated.test/realms/one" },
          audience: { old: null, new: defaults.audience },
          personClaim: { old: null, new: defaults.personClaim },
          scopeMap: { old: null, new: defaults.scopeMap }
        })
        // Only what changed.
        expect(rows[1]!.changes).toEqual({
          issuer: { old: "https://login.operated.test/realms/one", new: "https://login.operated.test/realms/two" },
          personClaim: { old: "email", new: "upn" }
        })
        expect(rows[2]!.changes).toEqual({
          issuer: { old: "https://login.operated.test/realms/two", new: null },
          audience: { old: defaults.audience, new: null },
          personClaim: { old: "upn", new: null },
          scopeMap: { old: defaults.scopeMap, new: null }
        })
        expect(rows.every((row) => row.targets[0]?.id === orgId && row.actor.type === "system")).toBe(true)
      }))

    it.effect("an unknown organization is NotFound to setting, clearing and exporting alike", () =>
      Effect.gen(function*() {
        const oauth = yield* OAuthResource
        const reads = yield* JournalReads
        const unknown = OrganizationId.make("org_unknown")
        const tags = [
          yield* Effect.flip(oauth.set({ organizationId: unknown, issuer: "https://login.operated.test/x" })),
          yield* Effect.flip(oauth.clear(unknown)),
          yield* Effect.flip(Stream.runCollect(reads.auditExport({ orgId: unknown, since: null, until: null })))
        ].map((error) => error._tag)
        expect(tags).toEqual(["NotFound", "NotFound", "NotFound"])
      }))
  })
})
