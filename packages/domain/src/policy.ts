import { Context } from "effect"
import type { Actor } from "./actor.js"
import { Forbidden, NotFound } from "./errors.js"
import { hasPermission, isOrganizationAdmin, type Permission } from "./permissions.js"
import { OrgRole, type Scope } from "./roles.js"

/**
 * Declared authorization (docs/domain.md, Who may call what): every endpoint and every tool names the
 * policy it is called under, and this module alone decides it. A transport
 * reads the declaration, calls `authorize` with the caller as they are now,
 * and hands the resulting `Access` to the domain service, which never
 * checks roles itself: it filters by `access.reach`.
 */

/**
 * How far a caller's act or read extends once they are allowed in:
 * `reports` is the caller and the people who report to them, directly or
 * further down the reporting line (the service resolves the line);
 * `readable` is the records the caller's visibility lets them read (the
 * service applies the visibility rules), where `organization` skips them.
 */
export type Reach = "organization" | "teams" | "reports" | "readable" | "self"

/**
 * Who reaches what:
 * - `organization`: everyone allowed in reaches the whole organization;
 * - `admins-else-self`: organization admins the organization, anyone else themself;
 * - `admins-teams-else-self`: as above, and team admins the people on the teams they administer;
 * - `admins-managers-else-self`: as `admins-else-self`, and managers the people below them on the reporting line;
 * - `admins-else-readable`: organization admins the organization, anyone else only what they can read;
 * - `admins-only`: organization admins only; anyone else is denied;
 * - `self`: the caller's own records only.
 */
export type ReachRule =
  | "organization"
  | "admins-else-self"
  | "admins-teams-else-self"
  | "admins-managers-else-self"
  | "admins-else-readable"
  | "admins-only"
  | "self"

export interface Policy {
  /** What the caller is doing, as it reads in a sentence ("list members"). */
  readonly action: string
  /**
   * The permission the person must hold now; several: any one of them
   * (narration needs one of guide.create, video.create or
   * content-review.create); null when any member may call.
   */
  readonly permission: Permission | ReadonlyArray<Permission> | null
  /** The scope the token must carry; null when none is needed. */
  readonly scope: Scope | null
  readonly reach: ReachRule
  /** A denied caller gets 403, or 404 with this message (records out of reach are absent). */
  readonly denied: "forbidden" | { readonly notFound: string }
}

/** A policy, with the common defaults: no permission, no scope, forbidden when denied. */
export const policy = (
  fields: Pick<Policy, "action" | "reach"> & Partial<Pick<Policy, "permission" | "scope" | "denied">>
): Policy => ({ permission: null, scope: null, denied: "forbidden", ...fields })

/** The proof that a caller passed a policy: services take this, never a bare actor. */
export interface Access {
  readonly actor: Actor
  readonly reach: Reach
}

/**
 * Each reach rule: what it grants a caller (null: denied), and the phrase
 * the OpenAPI sentence says of it. One entry holds both, so the text names
 * exactly the reach `authorize` hands the services.
 */
const reachRules: { readonly [Rule in ReachRule]: { readonly of: (actor: Actor) => Reach | null; readonly phrase: string } } = {
  organization: { of: () => "organization", phrase: "Callers reach the whole organization." },
  "admins-else-self": {
    of: (actor) => (isOrganizationAdmin(actor.role) ? "organization" : "self"),
    phrase: "Organization admins reach the whole organization; anyone else only themself."
  },
  "admins-teams-else-self": {
    of: (actor) =>
      isOrganizationAdmin(actor.role) ? "organization" : actor.teams.some((team) => team.role === "team-admin") ? "teams" : "self",
    phrase:
      "Organization admins reach the whole organization, team admins the people on the teams they administer, anyone else only themself."
  },
  "admins-managers-else-self": {
    of: (actor) => (isOrganizationAdmin(actor.role) ? "organization" : "reports"),
    phrase:
      "Organization admins reach the whole organization, managers at any depth of the reporting line the people below them, anyone else only themself."
  },
  "admins-else-readable": {
    of: (actor) => (isOrganizationAdmin(actor.role) ? "organization" : "readable"),
    phrase: "Organization admins reach the whole organization; anyone else only what they can read."
  },
  "admins-only": {
    of: (actor) => (isOrganizationAdmin(actor.role) ? "organization" : null),
    phrase: "Organization admins (owner, admin, billing-admin) only, reaching the whole organization."
  },
  self: { of: () => "self", phrase: "Only the caller's own records." }
}

/** What the OpenAPI sentence says of a reach rule. */
export const reachPhrase = (rule: ReachRule): string => reachRules[rule].phrase

const permissionsOf = (permission: Permission | ReadonlyArray<Permission>): ReadonlyArray<Permission> =>
  typeof permission === "string" ? [permission] : permission

const permissionText = (permission: Permission | ReadonlyArray<Permission>): string => {
  const names = permissionsOf(permission)
  return names.length === 1
    ? `the ${names[0]} permission`
    : `one of the ${names.slice(0, -1).join(", ")} or ${names.at(-1)} permissions`
}

const denial = (policy: Policy, message: string): Forbidden | NotFound =>
  policy.denied === "forbidden" ? new Forbidden({ message }) : new NotFound({ message: policy.denied.notFound })

/**
 * The one check: the token's scope, then the person's permission, then how
 * far they reach. Scopes are fixed at issue; permission and reach follow
 * the person's role as it is on this call (a demoted team admin keeps the
 * token's scope but reaches only themself).
 */
export const authorize = (actor: Actor, policy: Policy): Access | Forbidden | NotFound => {
  if (policy.scope !== null && !actor.scopes.includes(policy.scope)) {
    return denial(policy, `This token lacks the ${policy.scope} scope needed to ${policy.action}`)
  }
  if (policy.permission !== null && !permissionsOf(policy.permission).some((p) => hasPermission(actor.role, p))) {
    return denial(policy, `You may not ${policy.action}: it needs ${permissionText(policy.permission)}`)
  }
  const reach = reachRules[policy.reach].of(actor)
  if (reach === null) return denial(policy, `Only organization admins may ${policy.action}`)
  return { actor, reach }
}

export const isAccess = (result: Access | Forbidden | NotFound): result is Access =>
  !(result instanceof Forbidden) && !(result instanceof NotFound)

/**
 * A narrower rule inside an allowed call (a filter only admins may use):
 * refused with the same kind of message as a policy.
 */
export const requireOrganizationReach = (access: Access, action: string): Forbidden | null =>
  access.reach === "organization" ? null : new Forbidden({ message: `Only organization admins may ${action}` })

/** The sentence OpenAPI shows under each operation: who may call, and what a denied caller gets. */
export const describePolicy = (policy: Policy): string => {
  const who = policy.permission === null
    ? "Any member of the organization."
    : `Needs ${permissionText(policy.permission)} (${rolesHoldingAny(permissionsOf(policy.permission)).join(", ")}).`
  const scope = policy.scope === null ? "No token scope needed." : `The token needs the ${policy.scope} scope.`
  const denied = policy.denied === "forbidden" ? "Others get 403." : "Others get 404, as if the record were absent."
  const canDeny = policy.permission !== null || policy.scope !== null || policy.reach === "admins-only"
  return `**Who may call:** ${who} ${reachPhrase(policy.reach)} ${scope}${canDeny ? ` ${denied}` : ""}`
}

/** The organization roles holding any of the permissions, in the order of `OrgRole`. */
const rolesHoldingAny = (permissions: ReadonlyArray<Permission>): ReadonlyArray<OrgRole> =>
  OrgRole.literals.filter((role) => permissions.some((permission) => hasPermission(role, permission)))

/** The statuses a policy can deny with (for the documented responses). */
export const deniedStatuses = (policy: Policy): ReadonlyArray<403 | 404> => {
  const canDeny = policy.permission !== null || policy.scope !== null || policy.reach === "admins-only"
  return !canDeny ? [] : policy.denied === "forbidden" ? [403] : [404]
}

/** The authorized caller of the current request (provided by each transport once the policy passed). */
export class CurrentAccess extends Context.Tag("@tks/domain/CurrentAccess")<CurrentAccess, Access>() {}
