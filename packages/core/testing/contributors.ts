import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * The organizations of the content-adding and review-lane tests.
 * Adding content needs a token with `content:write`, which the
 * shared callers of organizations.ts do not carry (and other tests rely on
 * their tokens as they are), so these callers have their own organization,
 * with the same roles:
 *
 * | key | role | teams | what they are for |
 * |---|---|---|---|
 * | owner, admin, billingAdmin | owner, admin, billing-admin | | organization admins: publish anything, review |
 * | viewer | viewer | ops, alpha (team-viewer) | goes to review; reads content shared with ops or alpha |
 * | external | external | partners | no permission to add content (403) |
 * | teamAdmin | viewer | ops, night (team-admin), alpha (team-viewer) | publishes to ops and night; anything else goes to review |
 * | unscoped | admin | | a token without content:write (403) |
 * | expired, revoked | admin | | an expired token; a token the test revokes |
 * | member01 ... member24 | viewer | alpha (member01-12) | submitters: each test that sends contributions to review uses its own, since the review-submission limit (3 a minute, 20 an hour) is per person |
 *
 * Every token carries content:write only, except unscoped's (none).
 *
 * **elsewhere**: a second organization, with an admin (`otto`, content:write)
 * and a team `foreign` whose id is an unknown teamId to the first.
 */
const scoped = { tokenScopes: ["content:write"] } as const

const person = (key: string, name: string, role: "owner" | "admin" | "billing-admin" | "viewer" | "external", extra: object = {}) => ({
  key,
  name,
  email: `${key.toLowerCase()}@contributors.test`,
  role,
  ...scoped,
  ...extra
})

export const submitterKeys = Array.from({ length: 24 }, (_, i) => `member${String(i + 1).padStart(2, "0")}`)

export const contributors: OrgFixtureInput = {
  organization: { name: "Contributors", plan: "pro" },
  people: [
    person("owner", "Olga Owner", "owner"),
    person("admin", "Arno Admin", "admin"),
    person("billingAdmin", "Bea Billing", "billing-admin"),
    person("viewer", "Vic Viewer", "viewer"),
    person("external", "Exa External", "external"),
    person("teamAdmin", "Tia Teamadmin", "viewer"),
    person("unscoped", "Una Unscoped", "admin", { tokenScopes: [] }),
    person("expired", "Eli Expired", "admin", { tokenExpiresAt: "2020-01-01T00:00:00.000Z" }),
    person("revoked", "Rae Revoked", "admin"),
    ...submitterKeys.map((key, i) => person(key, `Member ${String(i + 1).padStart(2, "0")}`, "viewer"))
  ],
  teams: [
    {
      key: "ops",
      name: "Ops",
      members: [{ person: "teamAdmin", role: "team-admin" }, { person: "viewer" }]
    },
    { key: "night", name: "Night", members: [{ person: "teamAdmin", role: "team-admin" }] },
    {
      key: "alpha",
      name: "Alpha",
      members: [{ person: "viewer" }, { person: "teamAdmin" }, ...submitterKeys.slice(0, 12).map((key) => ({ person: key }))]
    },
    { key: "partners", name: "Partners", members: [{ person: "external" }] }
  ]
}

export const elsewhere: OrgFixtureInput = {
  organization: { name: "Elsewhere", plan: "starter" },
  people: [{ key: "otto", name: "Otto Elsewhere", email: "otto@elsewhere.test", role: "admin", tokenScopes: ["content:write"] }],
  teams: [{ key: "foreign", name: "Foreign", members: [{ person: "otto" }] }]
}
