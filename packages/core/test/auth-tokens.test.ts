import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { Actor } from "@tks/domain/actor"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { authorize } from "@tks/domain/policy"
import { Authenticator } from "../src/auth/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { allowed } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Authenticator.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const person = (key: string, role: string, extra: Record<string, unknown> = {}) => ({
  key,
  name: `${key} person`,
  email: `${key}@tokens.test`,
  role,
  tokenScopes: [],
  ...extra
})

/** Two organizations: each person has one token; `gone` has left. */
const setup = Effect.gen(function*() {
  const importer = yield* FixtureImporter
  const auth = yield* Authenticator
  const acme = yield* importer.importOrganization({
    organization: { name: "Acme" },
    people: [
      person("admin", "admin"),
      person("viewer", "viewer"),
      person("other", "viewer"),
      person("gone", "viewer", { status: "DEACTIVATED", tokenScopes: undefined })
    ]
  })
  const globex = yield* importer.importOrganization({ organization: { name: "Globex" }, people: [person("admin", "admin")] })
  const actorOf = (token: string) => auth.authenticate(token).pipe(Effect.orDie)
  return {
    auth,
    acme,
    globex,
    acmeAdmin: yield* actorOf(acme.tokens.admin!),
    acmeViewer: yield* actorOf(acme.tokens.viewer!),
    acmeOther: yield* actorOf(acme.tokens.other!),
    globexAdmin: yield* actorOf(globex.tokens.admin!)
  }
})

const stillWorks = (auth: Authenticator, token: string) => Effect.exit(auth.authenticate(token)).pipe(Effect.map(Exit.isSuccess))
/** The person as the service sees them once the policy of the act let them in. */
const revoking = (actor: Actor) => Caller.person(allowed(actor, policies.tokens.revoke))
const issuing = (actor: Actor) => Caller.person(allowed(actor, policies.tokens.issue))

layer(TestLayer)("access tokens", (it) => {
  describe("revoking is limited by the caller", () => {
    it.effect("another organization's admin revoking a token gets NotFound, and the token still works", () =>
      Effect.gen(function*() {
        const { acme, acmeViewer, auth, globexAdmin } = yield* setup
        const exit = yield* Effect.exit(auth.revoke(revoking(globexAdmin), acmeViewer.tokenId!))
        expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "NotFound" } } })
        expect(yield* stillWorks(auth, acme.tokens.viewer!)).toBe(true)
      }))

    it.effect("a viewer may revoke their own token but not a colleague's (answered as absent)", () =>
      Effect.gen(function*() {
        const { acme, acmeOther, acmeViewer, auth } = yield* setup
        const exit = yield* Effect.exit(auth.revoke(revoking(acmeViewer), acmeOther.tokenId!))
        expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "NotFound" } } })
        expect(yield* stillWorks(auth, acme.tokens.other!)).toBe(true)
        yield* auth.revoke(revoking(acmeViewer), acmeViewer.tokenId!)
        expect(yield* stillWorks(auth, acme.tokens.viewer!)).toBe(false)
      }))

    it.effect("an organization admin revokes any token of their organization; the system any token at all", () =>
      Effect.gen(function*() {
        const { acme, acmeAdmin, acmeOther, auth, globex, globexAdmin } = yield* setup
        yield* auth.revoke(revoking(acmeAdmin), acmeOther.tokenId!)
        expect(yield* stillWorks(auth, acme.tokens.other!)).toBe(false)
        yield* auth.revoke(Caller.system("test"), globexAdmin.tokenId!)
        expect(yield* stillWorks(auth, globex.tokens.admin!)).toBe(false)
      }))
  })

  describe("issuing", () => {
    it.effect("a token is not issued to a person who has left, with a clear reason, and nothing is stored", () =>
      Effect.gen(function*() {
        const { acme, auth } = yield* setup
        const exit = yield* Effect.exit(auth.issue(Caller.system("test"), {
          organizationId: OrganizationId.make(acme.organizationId),
          userId: UserId.make(acme.ids.people.gone!),
          scopes: []
        }))
        expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "BadRequest", code: "PERSON_DEACTIVATED" } } })
      }))

    it.effect("a person issues tokens only in their own organization and only as an organization admin", () =>
      Effect.gen(function*() {
        const { acme, acmeAdmin, acmeViewer, auth, globexAdmin } = yield* setup
        const input = {
          organizationId: OrganizationId.make(acme.organizationId),
          userId: UserId.make(acme.ids.people.other!),
          scopes: ["content:write" as const]
        }
        const foreign = yield* Effect.exit(auth.issue(issuing(globexAdmin), input))
        expect(foreign).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "NotFound" } } })
        // The policy refuses a viewer before the service is called.
        expect(authorize(acmeViewer, policies.tokens.issue)).toMatchObject({
          _tag: "Forbidden",
          message: "Only organization admins may issue tokens"
        })
        const issued = yield* auth.issue(issuing(acmeAdmin), input)
        const actor = yield* auth.authenticate(issued.token)
        expect(actor.userId).toBe(acme.ids.people.other)
        expect(actor.scopes).toEqual(["content:write"])
        expect(AccessTokenId.make(issued.id)).toBe(actor.tokenId)
      }))
  })
})
