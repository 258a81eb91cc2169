import { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import { AccessTokenId, CompanyRoleId, OrganizationId, TeamId, UserId } from "@tks/domain/ids"
import { type Access, authorize, isAccess, type Policy } from "@tks/domain/policy"
import type { OrgRole, TeamRole } from "@tks/domain/roles"
import { FixtureImporter } from "../../src/org-import/importer.js"
import type { ImportResult, OrgFixtureInput } from "../../src/org-import/schema.js"

/**
 * Services take an `Access`: the proof that a transport decided the
 * operation's policy for the caller. Core tests build it the same way, with
 * `authorize(actor, policies.<area>.<operation>)`, so each test names the
 * operation it exercises. Who is refused by a policy is not a core test's
 * business (domain/test/policy.test.ts and the HTTP caller matrix hold it):
 * a denial here fails the test.
 */
export const allowed = (actor: Actor, policy: Policy): Access => {
  const decided = authorize(actor, policy)
  if (!isAccess(decided)) {
    throw new Error(`The test expected ${actor.role} ${actor.userId} to be allowed to ${policy.action}: ${decided.message}`)
  }
  return decided
}

/** An actor of `organizationId` who is not a person of any fixture (a test that only needs a role). */
export const actorIn = (
  organizationId: string,
  role: OrgRole,
  teams: ReadonlyArray<{ readonly teamId: string; readonly role: TeamRole }> = []
): Actor => ({
  organizationId: OrganizationId.make(organizationId),
  userId: UserId.make("usr_test"),
  role,
  teams: teams.map((team) => ({ teamId: TeamId.make(team.teamId), role: team.role })),
  scopes: [],
  tokenId: AccessTokenId.make("tok_test")
})

/** An imported organization, with its people as callers and its ids typed. */
export interface Imported {
  readonly organizationId: OrganizationId
  readonly ids: ImportResult["ids"]
  /** Person `key` as the authentication would read them: role, teams and token scopes from the fixture. */
  readonly actor: (key: string) => Actor
  /** `actor(key)` allowed by `policy` (a denial fails the test). */
  readonly access: (key: string, policy: Policy) => Access
  readonly userId: (key: string) => UserId
  readonly teamId: (key: string) => TeamId
  readonly roleId: (key: string) => CompanyRoleId
}

const known = (ids: Readonly<Record<string, string>>, kind: string, key: string): string => {
  const id = ids[key]
  if (id === undefined) throw new Error(`The fixture has no ${kind} with key ${key}`)
  return id
}

export const importedAs = (organization: OrgFixtureInput, result: ImportResult): Imported => {
  const userId = (key: string) => UserId.make(known(result.ids.people, "person", key))
  const teamId = (key: string) => TeamId.make(known(result.ids.teams, "team", key))
  const actor = (key: string): Actor => {
    const person = (organization.people ?? []).find((candidate) => candidate.key === key)
    if (person === undefined) throw new Error(`The fixture has no person with key ${key}`)
    return {
      organizationId: OrganizationId.make(result.organizationId),
      userId: userId(key),
      role: person.role,
      teams: (organization.teams ?? []).flatMap((team) =>
        (team.members ?? [])
          .filter((member) => member.person === key)
          .map((member) => ({ teamId: teamId(team.key), role: member.role ?? "team-viewer" }))
      ),
      scopes: person.tokenScopes ?? [],
      tokenId: AccessTokenId.make(result.tokenIds[key] ?? "tok_test")
    }
  }
  return {
    organizationId: OrganizationId.make(result.organizationId),
    ids: result.ids,
    actor,
    access: (key, policy) => allowed(actor(key), policy),
    userId,
    teamId,
    roleId: (key) => CompanyRoleId.make(known(result.ids.companyRoles, "company role", key))
  }
}

/**
 * Imports the named organizations once per test file (each file has its
 * own database), in the order given; yields them by name.
 */
export const importedOnce = <const Name extends string>(organizations: Readonly<Record<Name, OrgFixtureInput>>) =>
  Effect.runSync(Effect.cached(
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const imported: Partial<Record<Name, Imported>> = {}
      for (const name of Object.keys(organizations) as Array<Name>) {
        imported[name] = importedAs(organizations[name], yield* importer.importOrganization(organizations[name]))
      }
      return imported as Record<Name, Imported>
    }).pipe(Effect.orDie)
  ))
