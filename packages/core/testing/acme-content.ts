import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * Acme's library: content of every type and visibility, in every status, with
 * chapters and the evidence that ties acme's items to it (see
 * acme-knowledge.ts for the graph). Everything arrives already processed, so
 * no job runs in a test server that imports acme.
 *
 * Listed (published), newest first: Safety Guide (guide, everyone), Fire
 * Drill Walkthrough (video, everyone), Vault Key Policy (admins), Ops Pager
 * Runbook (teams: Ops), Deployment Guide (everyone), Quarterly Planning Notes
 * (everyone, oldest). Never listed: a draft, one in review, one rejected.
 *
 * Evidence: Deployments' items rest on the Deployment Guide only; On-call's on
 * the Ops runbook; Key rotation's on the Vault policy; Safety's Fire drill on
 * both the video and the Safety Guide, First aid on the Safety Guide.
 */

const deployBody = [
  "# Deployment Guide",
  "",
  "## Rolling out",
  "",
  "Every release follows the rollout checklist. The canary step sends 5% of traffic to the new version for 30 minutes.",
  "",
  "## Hotfixes",
  "",
  "A hotfix must be reviewed by a second engineer before it ships."
].join("\n")

const runbookBody = [
  "## Pager rotation",
  "",
  "The on-call engineer carries the pager for one week. Handover happens on Monday at 10:00."
].join("\n")

const vaultBody = [
  "## Key rotation",
  "",
  "Vault access is granted only to administrators. Keys are rotated every 90 days."
].join("\n")

const safetyBody = [
  "## Fire drills",
  "",
  "Fire drills happen twice a year. The fire warden leads everyone to the assembly point.",
  "",
  "## First aid",
  "",
  "First aid kits are kept next to every exit."
].join("\n")

/** The character range of `quote` in `body` (end exclusive), as evidence names it. */
export const rangeOf = (body: string, quote: string): [number, number] => {
  const start = body.indexOf(quote)
  if (start < 0) throw new Error(`"${quote}" is not in the body`)
  return [start, start + quote.length]
}

const section = (body: string, headline: string, next?: string): string => {
  const from = body.indexOf(`## ${headline}`) + `## ${headline}\n\n`.length
  const to = next === undefined ? body.length : body.indexOf(`## ${next}`)
  return body.slice(from, to).trimEnd()
}

export const acmeBodies = { deployBody, runbookBody, vaultBody, safetyBody } as const

const at = (day: number) => `2026-04-${String(day).padStart(2, "0")}T09:00:00.000Z`

export const acmeContent: NonNullable<OrgFixtureInput["content"]> = [
  {
    key: "planning",
    title: "Quarterly Planning Notes",
    summary: null,
    chapters: [{ headline: "Goals", text: "Plan the quarter with every team lead." }],
    createdAt: "2025-12-01T09:00:00.000Z"
  },
  {
    key: "deployGuide",
    title: "Deployment Guide",
    summary: "How releases reach production",
    notes: "Internal: rewrite the hotfix chapter",
    body: deployBody,
    chapters: [
      { headline: "Rolling out", text: section(deployBody, "Rolling out", "Hotfixes") },
      { headline: "Hotfixes", text: section(deployBody, "Hotfixes") }
    ],
    sourceUrl: "https://docs.acme.test/deploy",
    createdBy: "victor",
    createdAt: at(1)
  },
  {
    key: "opsRunbook",
    title: "Ops Pager Runbook",
    visibility: "teams",
    teams: ["ops"],
    body: runbookBody,
    chapters: [{ headline: "Pager rotation", text: section(runbookBody, "Pager rotation") }],
    createdAt: at(2)
  },
  {
    key: "vaultPolicy",
    title: "Vault Key Policy",
    visibility: "admins",
    body: vaultBody,
    chapters: [{ headline: "Key rotation", text: section(vaultBody, "Key rotation") }],
    createdAt: at(3)
  },
  {
    key: "fireVideo",
    type: "video",
    title: "Fire Drill Walkthrough",
    videoId: "dQw4w9WgXcQ",
    durationSeconds: 212,
    sourceUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    createdAt: at(4)
  },
  {
    key: "safetyGuide",
    type: "guide",
    title: "Safety Guide",
    body: safetyBody,
    chapters: [
      { headline: "Fire drills", text: section(safetyBody, "Fire drills", "First aid") },
      { headline: "First aid", text: section(safetyBody, "First aid") }
    ],
    createdAt: at(5)
  },
  { key: "draftDoc", title: "Draft Deployment Notes", status: "draft", body: "Not ready yet.", createdAt: at(6) },
  { key: "pendingDoc", title: "Pending Deployment Proposal", status: "in_review", visibility: "admins", body: "Please review.", createdBy: "victor", createdAt: at(7) },
  { key: "rejectedDoc", title: "Rejected Deployment Idea", status: "rejected", visibility: "admins", body: "No.", createdBy: "victor", createdAt: at(8) }
]

const quote = (content: string, body: string, text: string, chapter: number, confidence = 0.9) => ({
  content,
  quote: text,
  chars: rangeOf(body, text),
  chapter,
  confidence
})

/** Evidence for acme's items, by item key (used by acme-knowledge.ts). */
export const acmeItemEvidence = {
  rollout: [quote("deployGuide", deployBody, "Every release follows the rollout checklist.", 1)],
  canary: [quote("deployGuide", deployBody, "The canary step sends 5% of traffic to the new version for 30 minutes.", 1, 0.8)],
  hotfix: [quote("deployGuide", deployBody, "A hotfix must be reviewed by a second engineer before it ships.", 2, 0.95)],
  pager: [quote("opsRunbook", runbookBody, "The on-call engineer carries the pager for one week.", 1)],
  vault: [quote("vaultPolicy", vaultBody, "Vault access is granted only to administrators.", 1)],
  fire: [
    { content: "fireVideo", quote: "Walk calmly to the assembly point", seconds: [30, 75] as [number, number], confidence: 0.7 },
    quote("safetyGuide", safetyBody, "Fire drills happen twice a year.", 1)
  ],
  firstAid: [quote("safetyGuide", safetyBody, "First aid kits are kept next to every exit.", 2)]
}

export const acmeReviewRequests: NonNullable<OrgFixtureInput["reviewRequests"]> = [
  { key: "pendingReq", content: "pendingDoc", submitter: "victor", createdAt: at(7) },
  {
    key: "rejectedReq",
    content: "rejectedDoc",
    submitter: "victor",
    status: "REJECTED",
    decidedBy: "adam",
    decisionNote: "Out of scope",
    createdAt: at(8)
  }
]

/** Lesson pieces, by lesson key: onboarding and drills use the Deployment Guide, and so does incident (admins only). */
export const acmeLessonContent: Record<string, ReadonlyArray<string>> = {
  onboarding: ["deployGuide", "safetyGuide"],
  incident: ["deployGuide"],
  drills: ["opsRunbook", "deployGuide"]
}
