import { Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { Authenticator } from "@tks/core/auth/service"
import { Caller } from "@tks/domain/actor"
import { importFixture } from "./server.js"

/**
 * The caller matrix every endpoint is tested against (DESIGN 7): no token,
 * a made-up token, an expired and a revoked token, each org role, a team
 * admin (a viewer who administers a team), and another organization's admin.
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

const people = [
  { key: "owner", name: "Olivia Owner", email: "olivia@matrix.test", role: "owner" },
  { key: "admin", name: "Adam Admin", email: "adam@matrix.test", role: "admin" },
  { key: "billingAdmin", name: "Bella Billing", email: "bella@matrix.test", role: "billing-admin" },
  { key: "viewer", name: "Victor Viewer", email: "victor@matrix.test", role: "viewer" },
  { key: "external", name: "Ella External", email: "ella@matrix.test", role: "external" },
  { key: "teamAdmin", name: "Tara Teamadmin", email: "tara@matrix.test", role: "viewer" },
  { key: "expiredHolder", name: "Eddie Expired", email: "eddie@matrix.test", role: "admin" },
  { key: "revokedHolder", name: "Rita Revoked", email: "rita@matrix.test", role: "admin" }
] as const

/**
 * Merges the matrix people (with tokens) and a team administered by
 * `teamAdmin` into `fixture`, imports it and a second organization, and
 * returns the import result plus a token for every caller kind.
 */
export const withCallerMatrix = (fixture: OrgFixtureInput) =>
  Effect.gen(function*() {
    const matrixPeople = people.map((person) => ({
      ...person,
      tokenScopes: [],
      ...(person.key === "expiredHolder" ? { tokenExpiresAt: "2020-01-01T00:00:00.000Z" } : {})
    }))
    const result = yield* importFixture({
      ...fixture,
      people: [...matrixPeople, ...(fixture.people ?? [])],
      teams: [
        {
          key: "matrixTeam",
          name: "Matrix Team",
          members: [{ person: "teamAdmin", role: "team-admin" }, { person: "viewer", role: "team-viewer" }]
        },
        ...(fixture.teams ?? [])
      ]
    })
    const other = yield* importFixture({
      organization: { name: "Other Org" },
      people: [{ key: "otherOrgAdmin", name: "Otto Other", email: "otto@other.test", role: "admin", tokenScopes: [] }]
    })
    const revokedToken = result.tokens.revokedHolder!
    const authenticator = yield* Authenticator
    const actor = yield* authenticator.authenticate(revokedToken).pipe(Effect.orDie)
    yield* authenticator.revoke(Caller.system("test"), actor.tokenId).pipe(Effect.orDie)
    const tokens: Record<CallerKind, string> & Record<BadToken, string | undefined> = {
      owner: result.tokens.owner!,
      admin: result.tokens.admin!,
      billingAdmin: result.tokens.billingAdmin!,
      viewer: result.tokens.viewer!,
      external: result.tokens.external!,
      teamAdmin: result.tokens.teamAdmin!,
      otherOrgAdmin: other.tokens.otherOrgAdmin!,
      none: undefined,
      invalid: "tks_this-token-was-never-issued",
      expired: result.tokens.expiredHolder!,
      revoked: revokedToken
    }
    return { result, other, tokens }
  })

/** `withCallerMatrix(fixture)`, imported once per test file (each file has its own database) and shared by its tests. */
export const callerMatrixOnce = (fixture: OrgFixtureInput) => {
  let imported: Effect.Effect.Success<ReturnType<typeof withCallerMatrix>> | undefined
  return Effect.suspend(() =>
    imported !== undefined
      ? Effect.succeed(imported)
      : withCallerMatrix(fixture).pipe(Effect.tap((matrix) => Effect.sync(() => (imported = matrix))))
  )
}
