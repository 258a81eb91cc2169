import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { acmeItemEvidence as evidence, acmeLessonContent } from "./acme-content.js"

/**
 * Acme's knowledge graph, company roles and duties (see organizations.ts for
 * the organization as a whole). Every kind of record the read rules treat
 * differently is here once:
 *
 * - spaces by visibility: Platform and Buildings (everyone), Team Runbooks
 *   (teams: Ops and Partners), Secrets (admins only);
 * - graph state: an archived item with a child (Old step), a superseded item,
 *   an archived topic, an archived space (Legacy); nothing under them is live;
 * - items three deep (Rollout checklist > Canary step > Canary metrics);
 * - lessons for everyone, for admins only and for the Ops team.
 *
 * Company roles: Engineer (three tiers, a curriculum touching every kind of
 * record above, holders current, ended, deactivated and external) with Site
 * Reliability under it; roles whose duties sit on one item, only on records
 * out of the live graph, or nowhere; and roles whose names exercise LIKE
 * wildcards and case-insensitive ordering.
 */

export const acmeSpaces: NonNullable<OrgFixtureInput["spaces"]> = [
  {
    key: "platform",
    category: "engineering",
    name: "Platform",
    topics: [
      {
        key: "deploy",
        name: "Deployments",
        items: [
          {
            key: "rollout",
            name: "Rollout checklist",
            kind: "process",
            evidence: evidence.rollout,
            children: [
              {
                key: "canary",
                name: "Canary step",
                kind: "process",
                evidence: evidence.canary,
                children: [{ key: "canaryMetrics", name: "Canary metrics", kind: "fact" }]
              },
              {
                key: "oldStep",
                name: "Old step",
                kind: "process",
                state: "archived",
                children: [{ key: "underArchived", name: "Under archived", kind: "fact" }]
              }
            ]
          },
          { key: "hotfix", name: "hotfix policy", kind: "policy", evidence: evidence.hotfix },
          { key: "superseded", name: "Superseded fact", kind: "fact", state: "superseded" }
        ]
      },
      {
        key: "archivedTopic",
        name: "Archived topic",
        state: "archived",
        items: [{ key: "inArchivedTopic", name: "In archived topic", kind: "fact" }]
      }
    ]
  },
  {
    key: "runbooks",
    category: "engineering",
    name: "Team Runbooks",
    visibility: "teams",
    teams: ["ops", "partners"],
    topics: [
      {
        key: "oncall",
        name: "On-call",
        prerequisites: ["deploy"],
        items: [{ key: "pager", name: "Pager rotation", kind: "process", evidence: evidence.pager }]
      }
    ]
  },
  {
    key: "secrets",
    category: "engineering",
    name: "Secrets",
    visibility: "admins",
    topics: [
      {
        key: "keys",
        name: "Key rotation",
        related: ["deploy"],
        items: [{ key: "vault", name: "Vault access", kind: "policy", evidence: evidence.vault }]
      }
    ]
  },
  {
    key: "legacy",
    category: "engineering",
    name: "Legacy",
    state: "archived",
    topics: [{ key: "legacyTopic", name: "Legacy topic", items: [{ key: "legacyItem", name: "Legacy item", kind: "fact" }] }]
  },
  {
    key: "buildings",
    category: "facilities",
    name: "Buildings",
    topics: [
      {
        key: "safety",
        name: "Safety",
        items: [
          { key: "fire", name: "Fire drill", kind: "process", evidence: evidence.fire, children: [{ key: "warden", name: "Fire warden", kind: "fact" }] },
          { key: "firstAid", name: "First aid", kind: "fact", evidence: evidence.firstAid }
        ]
      }
    ]
  }
]

export const acmeLessons: NonNullable<OrgFixtureInput["lessons"]> = [
  { key: "onboarding", title: "Onboarding", content: [...(acmeLessonContent.onboarding ?? [])] },
  { key: "incident", title: "Incident command", visibility: "admins", content: [...(acmeLessonContent.incident ?? [])] },
  { key: "drills", title: "Team drills", visibility: "teams", teams: ["ops"], content: [...(acmeLessonContent.drills ?? [])] }
]

export const acmeCompanyRoles: NonNullable<OrgFixtureInput["companyRoles"]> = [
  {
    key: "eng",
    name: "Engineer",
    description: "Builds and runs the platform",
    tiers: [{ key: "associate", label: "Associate" }, { key: "senior", label: "Senior" }, { key: "lead", label: "Lead" }],
    members: [
      { person: "victor", tier: "senior" },
      { person: "amy", tier: "associate" },
      { person: "ella" },
      { person: "dora" },
      { person: "ed", startedAt: "2024-01-01T00:00:00.000Z", endedAt: "2025-01-01T00:00:00.000Z" }
    ],
    // In position order; archivedTopic and legacyTopic are out of the live graph.
    curriculum: [
      { lesson: "onboarding" },
      { topic: "deploy" },
      { lesson: "incident" },
      { topic: "oncall" },
      { topic: "archivedTopic" },
      { lesson: "drills" },
      { topic: "legacyTopic" },
      { topic: "keys" }
    ]
  },
  { key: "sre", name: "Site Reliability", parent: "eng", members: [{ person: "amy" }] },
  { key: "facilities", name: "Facilities Lead" },
  { key: "legacyKeeper", name: "Legacy Keeper" },
  { key: "idle", name: "Idle" },
  { key: "lead", name: "Warehouse Lead", members: [{ person: "victor" }] },
  { key: "driver", name: "Driver", members: [{ person: "victor" }, { person: "rex" }] },
  {
    key: "clerk",
    name: "Clerk",
    members: [{ person: "victor", startedAt: "2025-01-01T00:00:00.000Z", endedAt: "2025-06-01T00:00:00.000Z" }]
  },
  { key: "sure", name: "100% Sure_Thing" },
  { key: "under", name: "Under Study" },
  { key: "betaLower", name: "beta tester" },
  { key: "betaUpper", name: "Beta" }
]

export const acmeDuties: NonNullable<OrgFixtureInput["duties"]> = [
  { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { category: "engineering" }, tier: { qualifier: "MIN_TIER", tier: "senior" } },
  { holder: { role: "eng" }, raci: "ACCOUNTABLE", entity: { space: "platform" } },
  { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "deploy" } },
  { holder: { role: "eng" }, raci: "INFORMED", entity: { item: "rollout" }, tier: { qualifier: "EXACT_TIER", tier: "lead" } },
  // Out of the live graph: an archived topic, an archived item, a topic in an archived space, an item under an archived item.
  { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "archivedTopic" } },
  { holder: { role: "eng" }, raci: "INFORMED", entity: { item: "oldStep" } },
  { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "legacyTopic" } },
  { holder: { role: "eng" }, raci: "CONSULTED", entity: { item: "underArchived" } },
  { holder: { role: "sre" }, raci: "RESPONSIBLE", entity: { topic: "oncall" } },
  { holder: { role: "facilities" }, raci: "ACCOUNTABLE", entity: { item: "fire" } },
  // Legacy Keeper's duties all sit on records out of the live graph.
  { holder: { role: "legacyKeeper" }, raci: "RESPONSIBLE", entity: { topic: "archivedTopic" } },
  { holder: { role: "legacyKeeper" }, raci: "INFORMED", entity: { item: "superseded" } },
  { holder: { role: "legacyKeeper" }, raci: "CONSULTED", entity: { space: "legacy" } },
  // Held by a team, a person and a third party: never listed for a role.
  { holder: { team: "ops" }, raci: "RESPONSIBLE", entity: { topic: "deploy" } },
  { holder: { person: "victor" }, raci: "INFORMED", entity: { space: "platform" } },
  { holder: { thirdParty: "vendor" }, raci: "CONSULTED", entity: { category: "engineering" } },
  // The auditor's duties sit on every level of Platform (a space, a topic of Secrets, two items one under the
  // other) and on a record out of the live graph; third parties reach no person.
  { holder: { thirdParty: "auditor" }, raci: "ACCOUNTABLE", entity: { space: "platform" } },
  { holder: { thirdParty: "auditor" }, raci: "RESPONSIBLE", entity: { item: "rollout" } },
  { holder: { thirdParty: "auditor" }, raci: "INFORMED", entity: { item: "canary" } },
  { holder: { thirdParty: "auditor" }, raci: "INFORMED", entity: { topic: "keys" } },
  { holder: { thirdParty: "auditor" }, raci: "CONSULTED", entity: { topic: "archivedTopic" } }
]

/** Named so that byte order and case-insensitive order differ; Idle Partner holds no duty. */
export const acmeThirdParties: NonNullable<OrgFixtureInput["thirdParties"]> = [
  { key: "vendor", name: "Vendor" },
  { key: "auditor", name: "northwind Audit", description: "Audits the release process once a year" },
  { key: "idleParty", name: "Idle Partner" }
]
