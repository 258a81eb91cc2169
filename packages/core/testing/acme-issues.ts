import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * Acme's data-quality issues (see acme-knowledge.ts and acme-content.ts for
 * what their targets are), newest first. Besides organization admins, an
 * issue is read by whoever can read every one of its targets (an
 * assignment lets nobody past that):
 *
 * | key | type, severity, status | targets | assignee | who besides admins reads it |
 * |---|---|---|---|---|
 * | draftOnly, tieOther (same instant) | OTHER, LOW / MEDIUM, OPEN | draftDoc (a draft) / the Fire drill item | none / Driver role | nobody / every member but externals |
 * | categoryMisfile | MISCLASSIFICATION, LOW, DISMISSED | engineering category, Secrets space | Victor | readers of the Secrets space (not Victor, not externals) |
 * | noTarget | STRUCTURE_GAP, MEDIUM, OPEN | none | none | everyone |
 * | archivedDuplicate | DUPLICATE, LOW, RESOLVED | an archived topic, a topic of an archived space | Clerk (Victor's ended role) | nobody |
 * | oncallGap | CONTENT_GAP, MEDIUM, IN_PROGRESS | On-call, Pager rotation, Ops runbook, Deployments | Tara | Ops members (Victor, Tara), not Liam nor the Partners |
 * | secretsStale | STALE, CRITICAL, OPEN | Key rotation, Vault policy (admins only) | Engineer role | nobody (its holders Victor, Ella, amy included) |
 * | deployConflict | CONFLICT, HIGH, OPEN | Deployments, Deployment Guide, hotfix policy | none | every member but externals |
 */
const at = (day: number) => `2026-07-${String(day).padStart(2, "0")}T09:00:00.000Z`

export const acmeIssues: NonNullable<OrgFixtureInput["issues"]> = [
  {
    key: "deployConflict",
    type: "CONFLICT",
    severity: "HIGH",
    title: "The Deployment Guide and the hotfix policy disagree on reviews",
    description: "The guide asks for one reviewer, the policy for two.",
    targets: [{ topic: "deploy" }, { content: "deployGuide" }, { item: "hotfix" }],
    createdAt: at(1)
  },
  {
    key: "secretsStale",
    type: "STALE",
    severity: "CRITICAL",
    title: "Key rotation still names the old vault",
    targets: [{ topic: "keys" }, { content: "vaultPolicy" }],
    assignee: { role: "eng" },
    createdAt: at(2)
  },
  {
    key: "oncallGap",
    type: "CONTENT_GAP",
    severity: "MEDIUM",
    status: "IN_PROGRESS",
    title: "On-call has no escalation steps",
    targets: [{ topic: "oncall" }, { item: "pager" }, { content: "opsRunbook" }, { topic: "deploy" }],
    assignee: { person: "tara" },
    createdAt: at(3),
    updatedAt: at(4)
  },
  {
    key: "archivedDuplicate",
    type: "DUPLICATE",
    severity: "LOW",
    status: "RESOLVED",
    title: "Two archived topics cover the same ground",
    targets: [{ topic: "archivedTopic" }, { topic: "legacyTopic" }],
    assignee: { role: "clerk" },
    resolution: { strategy: "MERGED", note: "Merged into one before archiving.", resolvedAt: at(10) },
    createdAt: at(4),
    updatedAt: at(10)
  },
  {
    key: "noTarget",
    type: "STRUCTURE_GAP",
    severity: "MEDIUM",
    title: "Nothing covers visitor sign-in",
    createdAt: at(5)
  },
  {
    key: "categoryMisfile",
    type: "MISCLASSIFICATION",
    severity: "LOW",
    status: "DISMISSED",
    title: "Secrets might belong under IT security",
    targets: [{ category: "engineering" }, { space: "secrets" }],
    assignee: { person: "victor" },
    resolution: { strategy: "NO_CHANGE_NEEDED" },
    createdAt: at(6),
    updatedAt: at(7)
  },
  {
    key: "tieOther",
    type: "OTHER",
    severity: "MEDIUM",
    title: "Fire drill evidence is thin",
    targets: [{ item: "fire" }],
    assignee: { role: "driver" },
    createdAt: at(8)
  },
  {
    key: "draftOnly",
    type: "OTHER",
    severity: "LOW",
    title: "The draft deployment notes repeat the guide",
    targets: [{ content: "draftDoc" }],
    createdAt: at(8)
  }
]

/** The other organization's one issue (404 from acme). */
export const otherIssues: NonNullable<OrgFixtureInput["issues"]> = [
  { key: "otherIssue", type: "OTHER", severity: "LOW", title: "Other's own issue", createdAt: at(1) }
]
