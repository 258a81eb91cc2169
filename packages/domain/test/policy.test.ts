import { describe, expect, it } from "@effect/vitest"
import type { Actor } from "@tks/domain/actor"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { AccessTokenId, OrganizationId, TeamId, UserId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import {
  authorize,
  deniedStatuses,
  describePolicy,
  isAccess,
  policy,
  type Reach,
  type ReachRule,
  reachPhrase,
  requireOrganizationReach
} from "@tks/domain/policy"
import type { OrgRole, Scope } from "@tks/domain/roles"

const actor = (role: OrgRole, extra: Partial<Pick<Actor, "teams" | "scopes">> = {}): Actor => ({
  organizationId: OrganizationId.make("org_1"),
  userId: UserId.make("usr_1"),
  role,
  teams: [],
  scopes: [],
  tokenId: AccessTokenId.make("tok_1"),
  ...extra
})
const team = (role: "team-admin" | "team-viewer") => [{ teamId: TeamId.make("team_1"), role }]

/** Every org role, and a viewer who administers a team. */
const callers = {
  owner: actor("owner"),
  admin: actor("admin"),
  "billing-admin": actor("billing-admin"),
  viewer: actor("viewer", { teams: team("team-viewer") }),
  external: actor("external"),
  "team admin": actor("viewer", { teams: team("team-admin") })
} as const
type CallerName = keyof typeof callers

/** What each caller reaches under each rule; null is a denial. */
const expected: Record<ReachRule, Record<CallerName, Reach | null>> = {
  organization: {
    owner: "organization",
    admin: "organization",
    "billing-admin": "organization",
    viewer: "organization",
    external: "organization",
    "team admin": "organization"
  },
  "admins-else-self": {
    owner: "organization",
    admin: "organization",
    "billing-admin": "organization",
    viewer: "self",
    external: "self",
    "team admin": "self"
  },
  "admins-teams-else-self": {
    owner: "organization",
    admin: "organization",
    "billing-admin": "organization",
    viewer: "self",
    external: "self",
    "team admin": "teams"
  },
  "admins-only": {
    owner: "organization",
    admin: "organization",
    "billing-admin": "organization",
    viewer: null,
    external: null,
    "team admin": null
  },
  "admins-managers-else-self": {
    owner: "organization",
    admin: "organization",
    "billing-admin": "organization",
    viewer: "reports",
    external: "reports",
    "team admin": "reports"
  },
  "admins-else-readable": {
    owner: "organization",
    admin: "organization",
    "billing-admin": "organization",
    viewer: "readable",
    external: "readable",
    "team admin": "readable"
  },
  self: { owner: "self", admin: "self", "billing-admin": "self", viewer: "self", external: "self", "team admin": "self" }
}

/** What a reach rule's phrase must say of each reach it can grant (and of a denial). */
const named: Record<Reach | "denied", RegExp> = {
  organization: /whole organization/,
  teams: /teams they administer/,
  self: /themself|own records/,
  reports: /managers at any depth of (the|their) reporting line/,
  readable: /only what they can read/,
  denied: /only/i
}

const reachOf = (decided: ReturnType<typeof authorize>) => (isAccess(decided) ? decided.reach : decided)

describe("authorize (declared authorization)", () => {
  for (const rule of Object.keys(expected) as Array<ReachRule>) {
    it(`reach rule ${rule}: what every org role and a team admin reach`, () => {
      const open = policy({ action: "do the thing", reach: rule })
      for (const [name, caller] of Object.entries(callers) as Array<[CallerName, Actor]>) {
        const decided = authorize(caller, open)
        const reach = expected[rule][name]
        if (reach === null) {
          expect(decided, name).toBeInstanceOf(Forbidden)
          expect((decided as Forbidden).message, name).toBe("Only organization admins may do the thing")
        } else {
          expect(reachOf(decided), name).toBe(reach)
          expect(isAccess(decided) && decided.actor, name).toBe(caller)
        }
      }
    })
  }

  for (const rule of Object.keys(expected) as Array<ReachRule>) {
    it(`reach rule ${rule}: its phrase in the OpenAPI sentence names every reach it grants`, () => {
      const granted = new Set(Object.values(expected[rule]).map((reach) => reach ?? "denied"))
      for (const reach of granted) expect(reachPhrase(rule), `${rule} grants ${reach}`).toMatch(named[reach])
      expect(describePolicy(policy({ action: "do the thing", reach: rule }))).toContain(reachPhrase(rule))
    })
  }

  it("a role without the policy's permission is refused with a sentence naming the permission", () => {
    const decided = authorize(callers.external, policies.members.list)
    expect(decided).toBeInstanceOf(Forbidden)
    expect(decided).toMatchObject({ code: "FORBIDDEN", message: "You may not list members: it needs the user.read permission" })
    expect(reachOf(authorize(callers.viewer, policies.members.list))).toBe("self")
    expect(authorize(callers.viewer, policies.administration.findings)).toBeInstanceOf(Forbidden)
  })

  it("a token lacking the policy's scope is 403 whatever the role, checked before the permission", () => {
    const assign = policy({ action: "assign training", scope: "training:assign", reach: "organization" })
    for (const [name, caller] of Object.entries(callers)) {
      const decided = authorize(caller, assign)
      expect(decided, name).toBeInstanceOf(Forbidden)
      expect((decided as Forbidden).message, name).toBe("This token lacks the training:assign scope needed to assign training")
    }
    const other: ReadonlyArray<Scope> = ["content:write", "narration:synthesize"]
    expect(authorize(actor("owner", { scopes: other }), assign)).toBeInstanceOf(Forbidden)
    expect(reachOf(authorize(actor("owner", { scopes: ["training:assign"] }), assign))).toBe("organization")
    // An external account with the scope still lacks the permission.
    const guarded = policy({ action: "write content", scope: "content:write", permission: "guide.create", reach: "organization" })
    expect((authorize(actor("external"), guarded) as Forbidden).message).toContain("lacks the content:write scope")
    expect((authorize(actor("external", { scopes: ["content:write"] }), guarded) as Forbidden).message).toBe(
      "You may not write content: it needs the guide.create permission"
    )
  })

  it("a team admin demoted to plain viewer keeps the token's scope but reaches only themself under admins-teams-else-self", () => {
    const assign = policy({ action: "assign training", scope: "training:assign", reach: "admins-teams-else-self" })
    const before = actor("viewer", { teams: team("team-admin"), scopes: ["training:assign"] })
    const after = { ...before, teams: team("team-viewer") }
    const allowedBefore = authorize(before, assign)
    const allowedAfter = authorize(after, assign)
    expect(reachOf(allowedBefore)).toBe("teams")
    expect(reachOf(allowedAfter)).toBe("self")
    expect(isAccess(allowedAfter) && allowedAfter.actor.scopes).toEqual(["training:assign"])
  })

  it("a policy denied as not found answers NotFound with its message, for a missing scope or permission alike", () => {
    const decided = authorize(callers.external, policies.companyRoles.get)
    expect(decided).toBeInstanceOf(NotFound)
    expect(decided).toMatchObject({ code: "NOT_FOUND", message: "No such company role" })
    const hidden = policy({ action: "read a secret", scope: "content:write", reach: "organization", denied: { notFound: "No such secret" } })
    expect(authorize(callers.owner, hidden)).toMatchObject({ _tag: "NotFound", message: "No such secret" })
    expect(reachOf(authorize(callers.viewer, policies.companyRoles.get))).toBe("organization")
  })

  it("a narrower rule inside an allowed call is refused unless the caller reaches the organization", () => {
    const admin = authorize(callers.admin, policies.members.list)
    const viewer = authorize(callers.viewer, policies.members.list)
    expect(isAccess(admin) && requireOrganizationReach(admin, "filter by noManager")).toBeNull()
    const refused = isAccess(viewer) ? requireOrganizationReach(viewer, "filter by noManager") : null
    expect(refused).toBeInstanceOf(Forbidden)
    expect(refused?.message).toBe("Only organization admins may filter by noManager")
  })
})

describe("the policies of acts without an endpoint or tool", () => {
  it("tokens: only organization admins issue tokens, anyone else gets 403", () => {
    for (const name of ["owner", "admin", "billing-admin"] as const) {
      expect(reachOf(authorize(callers[name], policies.tokens.issue)), name).toBe("organization")
    }
    for (const name of ["viewer", "external", "team admin"] as const) {
      expect(authorize(callers[name], policies.tokens.issue), name).toMatchObject({
        _tag: "Forbidden",
        message: "Only organization admins may issue tokens"
      })
    }
  })

  it("tokens: organization admins revoke across the organization, anyone else only their own (others' tokens as if absent)", () => {
    expect(reachOf(authorize(callers.admin, policies.tokens.revoke))).toBe("organization")
    expect(reachOf(authorize(callers["team admin"], policies.tokens.revoke))).toBe("self")
    expect(policies.tokens.revoke.denied).toEqual({ notFound: "No live token with that id" })
  })
})

describe("the issues policies", () => {
  it("issues: organization admins reach every issue, anyone else only the issues they can read", () => {
    for (const issuePolicy of [policies.issues.list, policies.issues.get]) {
      expect(reachOf(authorize(callers.admin, issuePolicy))).toBe("organization")
      expect(reachOf(authorize(callers.viewer, issuePolicy))).toBe("readable")
      expect(reachOf(authorize(callers.external, issuePolicy))).toBe("readable")
      expect(describePolicy(issuePolicy)).toContain(
        "Organization admins reach the whole organization; anyone else only what they can read."
      )
    }
  })
})

describe("describePolicy and deniedStatuses (the OpenAPI sentence and responses)", () => {
  it("names the roles holding the permission, in the order of the roles", () => {
    expect(describePolicy(policies.members.list)).toContain("Needs the user.read permission (owner, admin, billing-admin, viewer).")
    expect(describePolicy(policies.administration.findings)).toContain(
      "Needs the organization.update permission (owner, admin, billing-admin)."
    )
  })

  it("says who reaches what, the scope, and what a denied caller gets; an open policy names no denial", () => {
    expect(describePolicy(policies.teams.list)).toBe(
      "**Who may call:** Any member of the organization. Organization admins reach the whole organization; anyone else only themself. No token scope needed."
    )
    expect(describePolicy(policies.companyRoles.get)).toContain("Others get 404, as if the record were absent.")
    expect(describePolicy(policies.members.invitations)).toContain("Others get 403.")
    const scoped = policy({ action: "assign training", scope: "training:assign", reach: "admins-teams-else-self" })
    expect(describePolicy(scoped)).toContain("The token needs the training:assign scope. Others get 403.")
    expect(describePolicy(scoped)).toContain("team admins the people on the teams they administer")
  })

  it("a policy that can deny documents 403 or 404; one that cannot documents neither", () => {
    expect(deniedStatuses(policies.me.get)).toEqual([])
    expect(deniedStatuses(policies.teams.list)).toEqual([])
    expect(deniedStatuses(policies.members.list)).toEqual([403])
    expect(deniedStatuses(policies.companyRoles.duties)).toEqual([404])
    expect(deniedStatuses(policy({ action: "x", reach: "admins-only" }))).toEqual([403])
  })
})
