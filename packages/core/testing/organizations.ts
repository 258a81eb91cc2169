import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { acmeContent, acmeReviewRequests } from "./acme-content.js"
import { acmeIssues, otherIssues } from "./acme-issues.js"
import { acmeCompanyRoles, acmeDuties, acmeLessons, acmeSpaces, acmeThirdParties } from "./acme-knowledge.js"
import { acmeTraining, acmeTrainingLessons } from "./acme-training.js"

/**
 * The named test organizations that core and server tests share, in the
 * organization import's format (docs/fixtures.md). A test imports them into
 * its own fresh database and asserts against the data written here, so a
 * test reads as "Victor, a viewer on Ops, lists members", and every test
 * agrees on who Victor is.
 *
 * Tests that need a state of their own (a finding at an exact microsecond,
 * a directory token expiring now) still build it in the test: these
 * organizations hold what many tests read.
 *
 * **acme** (enterprise plan): 24 people across every org role
 *
 * | key | name | role | what they are for |
 * |---|---|---|---|
 * | olivia | Olivia Owner | owner | caller `owner`; team admin of night shift; a phone |
 * | adam | adam Admin | admin | caller `admin`; a lower-case name (ordering ignores case) |
 * | bella | Bella Billing | billing-admin | caller `billingAdmin` |
 * | victor | Victor Viewer | viewer | caller `viewer`: on Alpha and Ops (team-viewer), reports to Olivia, holds Engineer (senior), Driver, Warehouse Lead; held Clerk |
 * | tara | Tara Teamadmin | viewer | caller `teamAdmin`: team admin of Ops, team-viewer on Alpha |
 * | ella | Ella External | external | caller `external`: on no team, holds Engineer |
 * | omar | Omar Outsider | external | an external account on a team (Partners) |
 * | liam | Liam Loner | viewer | on no team, no manager, no role: reads only what everyone reads |
 * | amy | amy Holder | viewer | holds Engineer (associate) and Site Reliability |
 * | ed | Ed Ended | viewer | held Engineer in 2024 only |
 * | dora | Dora Departed | viewer | DEACTIVATED (2026-01-15T08:30:00.000Z), on Ops, still listed as an Engineer holder, Rex's manager; a phone |
 * | gus | Gus Gone | viewer | DEACTIVATED, on night shift, reports to Olivia; his token never authenticates |
 * | rex | Rex Reports | viewer | on Ops, holds Driver, reports to Dora (departed) |
 * | nina | Nina Offbook | viewer | reports to a manager without an account |
 * | percy, una, basil | Percy 100% Sure, Una Under_score, Basil Back\slash | viewer | LIKE wildcards in names |
 * | dan | Dan Directory | viewer | provisioned by the directory, never signed up |
 * | sam1, sam2 | Sam Same, sam same | viewer | equal names up to case: ordered by id |
 * | sue | Sue Scoped | admin | a token with training:assign and content:write |
 * | nora | Nora Narrator | viewer | a token with narration:synthesize |
 * | eddie | Eddie Expired | admin | a token that expired in 2020 |
 * | rita | Rita Revoked | admin | a token the server caller matrix revokes |
 *
 * Everyone's email is `<key>@acme.test`. Tokens (no scopes unless said) for
 * the callers, omar, liam, gus, sue, nora, eddie and rita.
 *
 * Teams: Alpha (victor, tara), Empty, night shift (olivia as team admin,
 * gus), Ops (tara as team admin, victor, rex, dora), Partners (omar).
 * Three pending invitations; six findings; the org chart verified ten days
 * before the test run on a 90-day interval; an ACTIVE directory connection
 * with its counters and nine events. The knowledge graph, company roles and
 * duties are described in acme-knowledge.ts; data-quality issues in acme-issues.ts; lessons, enrollments, quiz
 * results, obligations, mastery, reviews and pop quizzes in acme-training.ts.
 *
 * **other**: a second organization (starter plan) with one admin, Otto, and
 * one of each thing a listing shows (a provisioned viewer, a team, a company
 * role, an invitation), so "another organization's admin sees only their own"
 * is seen on data rather than on an empty page.
 */

type Person = NonNullable<OrgFixtureInput["people"]>[number]

const person = (key: string, name: string, role: Person["role"], extra: Partial<Person> = {}): Person => ({
  key,
  name,
  email: `${key}@acme.test`,
  role,
  ...extra
})
const token = { tokenScopes: [] } as const

export const acmePeople: ReadonlyArray<Person> = [
  person("olivia", "Olivia Owner", "owner", { phone: "+15550001", ...token }),
  person("adam", "adam Admin", "admin", token),
  person("bella", "Bella Billing", "billing-admin", token),
  person("victor", "Victor Viewer", "viewer", { manager: "olivia", phone: "+15550002", ...token }),
  person("tara", "Tara Teamadmin", "viewer", token),
  person("ella", "Ella External", "external", token),
  person("omar", "Omar Outsider", "external", token),
  person("liam", "Liam Loner", "viewer", token),
  person("amy", "amy Holder", "viewer"),
  person("ed", "Ed Ended", "viewer"),
  person("dora", "Dora Departed", "viewer", {
    status: "DEACTIVATED",
    deactivatedAt: "2026-01-15T08:30:00.000Z",
    phone: "+15550100"
  }),
  person("gus", "Gus Gone", "viewer", { status: "DEACTIVATED", manager: "olivia", ...token }),
  person("rex", "Rex Reports", "viewer", { manager: "dora" }),
  person("nina", "Nina Offbook", "viewer", { manager: { name: "Outside Boss", email: "boss@elsewhere.test" } }),
  person("percy", "Percy 100% Sure", "viewer"),
  person("una", "Una Under_score", "viewer"),
  person("basil", "Basil Back\\slash", "viewer"),
  person("dan", "Dan Directory", "viewer", { directoryManaged: true, signedUp: false }),
  person("sam1", "Sam Same", "viewer"),
  person("sam2", "sam same", "viewer"),
  person("sue", "Sue Scoped", "admin", { tokenScopes: ["training:assign", "content:write"] }),
  person("nora", "Nora Narrator", "viewer", { tokenScopes: ["narration:synthesize"] }),
  person("eddie", "Eddie Expired", "admin", { ...token, tokenExpiresAt: "2020-01-01T00:00:00.000Z" }),
  person("rita", "Rita Revoked", "admin", token)
]

/** Who plays each caller of the HTTP caller matrix in acme, by person key. */
export const acmeCallers = {
  owner: "olivia",
  admin: "adam",
  billingAdmin: "bella",
  viewer: "victor",
  external: "ella",
  teamAdmin: "tara",
  /** Holders of an expired and of a (to be) revoked token. */
  expired: "eddie",
  revoked: "rita"
} as const

const dayMs = 86_400_000
/** When acme's org chart was last verified: ten days before this test run, in whole seconds. */
export const acmeVerifiedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 10 * dayMs).toISOString()

const findingAt = (day: number) => `2026-05-${String(day).padStart(2, "0")}T08:00:00.000Z`
const eventAt = (day: number) => `2026-06-${String(day).padStart(2, "0")}T09:00:00.000Z`

/** Acme's directory-sync events, oldest first; two share an instant (June 6). Their message and externalId are never returned. */
export const acmeDirectoryEvents = [
  { operation: "CREATE", outcome: "APPLIED", userName: "ann@acme.test", externalId: "ext-ann", message: "Created ann", createdAt: eventAt(1) },
  {
    operation: "CREATE",
    outcome: "REJECTED",
    reason: "DOMAIN_MISMATCH",
    userName: "bob@elsewhere.test",
    externalId: "ext-bob",
    message: "Refused bob",
    createdAt: eventAt(2)
  },
  {
    operation: "UPDATE",
    outcome: "SKIPPED",
    reason: "NO_CHANGE",
    userName: "ann@acme.test",
    externalId: "ext-ann",
    message: "Nothing to do",
    createdAt: eventAt(3)
  },
  { operation: "DEACTIVATE", outcome: "APPLIED", userName: "cid@acme.test", externalId: "ext-cid", message: "Deactivated cid", createdAt: eventAt(4) },
  {
    operation: "DELETE",
    outcome: "FAILED",
    reason: "INTERNAL_ERROR",
    userName: "dee@acme.test",
    externalId: "ext-dee",
    message: "Boom",
    createdAt: eventAt(5)
  },
  { operation: "REACTIVATE", outcome: "APPLIED", userName: "cid@acme.test", externalId: "ext-cid", message: "Back again", createdAt: eventAt(6) },
  { operation: "LIST", outcome: "APPLIED", userName: null, createdAt: eventAt(6) },
  { operation: "AUTH", outcome: "REJECTED", reason: "TOKEN_EXPIRED", userName: null, message: "Bad token", createdAt: eventAt(7) },
  { operation: "CREATE", outcome: "APPLIED", userName: "eve@acme.test", externalId: "ext-eve", message: "Created eve", createdAt: eventAt(8) }
] as const

export const acme: OrgFixtureInput = {
  organization: { name: "Acme", plan: "enterprise" },
  people: acmePeople,
  teams: [
    { key: "alpha", name: "Alpha", members: [{ person: "victor" }, { person: "tara" }] },
    { key: "empty", name: "Empty", members: [] },
    { key: "nightShift", name: "night shift", members: [{ person: "olivia", role: "team-admin" }, { person: "gus" }] },
    {
      key: "ops",
      name: "Ops",
      members: [{ person: "tara", role: "team-admin" }, { person: "victor" }, { person: "rex" }, { person: "dora" }]
    },
    { key: "partners", name: "Partners", members: [{ person: "omar" }] }
  ],
  invitations: [
    { name: "Ivy Old", email: "ivy@x.test", createdAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-15T00:00:00.000Z" },
    {
      name: "Ian Newer",
      email: "ian@x.test",
      phone: "+15550200",
      role: "admin",
      createdAt: "2026-02-01T00:00:00.000Z",
      expiresAt: "2099-01-01T00:00:00.000Z"
    },
    { name: "Ida Newest", email: "ida@x.test", createdAt: "2026-03-01T00:00:00.000Z", expiresAt: "2099-01-01T00:00:00.000Z" }
  ],
  companyRoles: acmeCompanyRoles,
  thirdParties: acmeThirdParties,
  spaces: acmeSpaces,
  lessons: [...acmeLessons, ...acmeTrainingLessons],
  content: acmeContent,
  reviewRequests: acmeReviewRequests,
  duties: acmeDuties,
  findings: [
    { content: "Pallet scanner outage costs two hours a week", source: { type: "user" }, author: "victor", createdAt: findingAt(1) },
    { content: "Competitor pricing page changed", source: { type: "system", systemSourceType: "web_analysis" }, createdAt: findingAt(4) },
    {
      content: "Research: onboarding takes 3 weeks",
      source: { type: "system", systemSourceType: "research_conversation" },
      createdAt: findingAt(2)
    },
    { content: "Tie one", source: { type: "user" }, author: "olivia", createdAt: findingAt(3) },
    { content: "Tie two", source: { type: "user" }, author: "olivia", createdAt: findingAt(3) },
    { content: "System note without a kind", source: { type: "system" }, createdAt: findingAt(5) }
  ],
  orgChartVerification: { lastVerifiedAt: acmeVerifiedAt, verifiedBy: "olivia", intervalDays: 90 },
  directory: {
    connection: {
      status: "ACTIVE",
      tokenCreatedAt: "2026-01-05T10:00:00.000Z",
      tokenLastUsedAt: "2026-06-08T09:00:00.000Z",
      tokenExpiresAt: "2999-01-01T00:00:00.000Z",
      lastSyncAt: "2026-06-08T09:00:00.000Z",
      sendWelcomeImmediately: true,
      countProvisioned: 12,
      countUpdated: 5,
      countDeactivated: 2,
      countSkipped: 1,
      createdAt: "2026-01-05T09:59:00.000Z"
    },
    events: acmeDirectoryEvents
  },
  issues: acmeIssues,
  ...acmeTraining
}

export const other: OrgFixtureInput = {
  organization: { name: "Other" },
  people: [
    { key: "otto", name: "Otto Other", email: "otto@other.test", role: "admin", tokenScopes: [] },
    { key: "pia", name: "Pia Provisioned", email: "pia@other.test", role: "viewer", directoryManaged: true }
  ],
  teams: [{ key: "otherTeam", name: "Other Team", members: [{ person: "otto" }] }],
  companyRoles: [{ key: "otherRole", name: "Alpha Other" }],
  thirdParties: [{ key: "otherVendor", name: "Other Vendor" }],
  invitations: [{ name: "Oscar Otherorg", email: "oscar@x.test", expiresAt: "2099-01-01T00:00:00.000Z" }],
  issues: otherIssues
}
