import { Effect } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import type { ImportResult, OrgFixtureInput } from "@tks/core/org-import/schema"
import { acme, acmeCallers, acmePeople, other } from "@tks/core/testing/organizations"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId } from "@tks/domain/ids"
import { once } from "./once.js"
import { importFixture } from "./server.js"

/**
 * The caller matrix every endpoint is tested against: no token,
 * a made-up token, an expired and a revoked token, each org role, a team
 * admin (a viewer who administers a team), and another organization's admin.
 * The callers are people of the shared test organizations
 * (@tks/core/testing/organizations): acme's `acmeCallers`, and Otto, the
 * admin of `other`.
 */
export const callerKinds = [
  "owner",
  "admin",
  "billingAdmin",
  "viewer",
  "external",
  "teamAdmin",
  "otherOrgAdmin"
] as const
export type CallerKind = (typeof callerKinds)[number]

export const badTokens = ["none", "invalid", "expired", "revoked"] as const
export type BadToken = (typeof badTokens)[number]

export interface CallerMatrix {
  /** The callers' organization. */
  readonly result: ImportResult
  /** The other organization, of `otherOrgAdmin`. */
  readonly other: ImportResult
  readonly tokens: Record<CallerKind, string> & Record<BadToken, string | undefined>
  /** Each caller's user id. */
  readonly userIds: Record<CallerKind, string>
}

/** The callers that are people of the callers' organization, with the holders of the expired and the revoked token. */
const inOrganization = ["owner", "admin", "billingAdmin", "viewer", "external", "teamAdmin"] as const
const holders = [...inOrganization, "expired", "revoked"] as const
type InOrganization = (typeof holders)[number]

/** Imports `organization` (whose people `keys` play the callers) and `other`, and revokes the revoked caller's token. */
const matrixOf = (organization: OrgFixtureInput, keys: Record<InOrganization, string>) =>
  Effect.gen(function*() {
    const result = yield* importFixture(organization)
    const second = yield* importFixture(other)
    const known = (record: Record<string, string>, key: string) => {
      const value = record[key]
      if (value === undefined) throw new Error(`The caller matrix has no token or id for ${key}`)
      return value
    }
    const authenticator = yield* Authenticator
    yield* authenticator.revoke(Caller.system("test"), AccessTokenId.make(known(result.tokenIds, keys.revoked))).pipe(Effect.orDie)
    const tokens = {
      ...Object.fromEntries(inOrganization.map((kind) => [kind, known(result.tokens, keys[kind])])),
      otherOrgAdmin: known(second.tokens, "otto"),
      none: undefined,
      invalid: "tks_this-token-was-never-issued",
      expired: known(result.tokens, keys.expired),
      revoked: known(result.tokens, keys.revoked)
    } as CallerMatrix["tokens"]
    const userIds = {
      ...Object.fromEntries(inOrganization.map((kind) => [kind, known(result.ids.people, keys[kind])])),
      otherOrgAdmin: known(second.ids.people, "otto")
    } as CallerMatrix["userIds"]
    const matrix: CallerMatrix = { result, other: second, tokens, userIds }
    return matrix
  })

/** The caller matrix on acme and other, imported once per test file. The usual setup of an endpoint's tests. */
export const acmeCallerMatrix = once(matrixOf(acme, acmeCallers))

/**
 * For a test that needs an organization of its own shape: acme's callers
 * (keyed by caller kind, with a team `matrixTeam` that `teamAdmin`
 * administers and `viewer` is on) merged into `fixture`, plus `other`.
 */
export const withCallerMatrix = (fixture: OrgFixtureInput) => {
  const keyOf = (kind: InOrganization) => (kind === "expired" ? "expiredHolder" : kind === "revoked" ? "revokedHolder" : kind)
  const people = holders.map((kind) => {
    const person = acmePeople.find((candidate) => candidate.key === acmeCallers[kind])!
    const expiry = person.tokenExpiresAt === undefined ? {} : { tokenExpiresAt: person.tokenExpiresAt }
    return { key: keyOf(kind), name: person.name, email: person.email, role: person.role, tokenScopes: [], ...expiry }
  })
  return matrixOf({
    ...fixture,
    people: [...people, ...(fixture.people ?? [])],
    teams: [
      {
        key: "matrixTeam",
        name: "Matrix Team",
        members: [{ person: "teamAdmin", role: "team-admin" }, { person: "viewer", role: "team-viewer" }]
      },
      ...(fixture.teams ?? [])
    ]
  }, Object.fromEntries(holders.map((kind) => [kind, keyOf(kind)])) as Record<InOrganization, string>)
}

/** `withCallerMatrix(fixture)`, imported once per test file and shared by its tests. */
export const callerMatrixOnce = (fixture: OrgFixtureInput) => once(withCallerMatrix(fixture))
