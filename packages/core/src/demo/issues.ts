import type { OrgFixtureInput } from "../org-import/schema.js"

/**
 * The demo's data-quality issues: every status, most types and severities,
 * one assigned to the COO role that Ben (the banner's admin) holds, one to a
 * person, one RESOLVED, one DISMISSED, one about records only admins read,
 * and one without a target.
 */
export const demoIssues = (ago: (days: number) => string): NonNullable<OrgFixtureInput["issues"]> => [
  {
    key: "incident-deadline-conflict",
    type: "CONFLICT",
    severity: "HIGH",
    title: "The handbook and the incident runbook disagree on when an incident must be reported",
    description: "Found by comparing the Warehouse Safety Handbook with the Incident Response Runbook and the Site Safety space.",
    targets: [{ topic: "incident-reporting" }, { content: "warehouse-safety-handbook" }, { content: "incident-response-runbook" }],
    assignee: { role: "coo" },
    createdAt: ago(2)
  },
  {
    key: "battery-charging-gap",
    type: "CONTENT_GAP",
    severity: "CRITICAL",
    title: "The pre-shift inspection does not cover battery charging",
    targets: [{ item: "inspection-checklist" }],
    assignee: { role: "safety-officer" },
    createdAt: ago(9)
  },
  {
    key: "failed-delivery-stale",
    type: "STALE",
    severity: "MEDIUM",
    status: "IN_PROGRESS",
    title: "Failed-delivery handling still quotes a carrier's old policy",
    targets: [{ item: "failed-delivery" }, { space: "dispatch-playbook" }],
    assignee: { person: "hugo" },
    createdAt: ago(6),
    updatedAt: ago(4)
  },
  {
    key: "weekend-escalation-gap",
    type: "STRUCTURE_GAP",
    severity: "MEDIUM",
    title: "No topic covers escalating a delivery problem at weekends",
    createdAt: ago(3)
  },
  {
    key: "pallet-height-duplicate",
    type: "DUPLICATE",
    severity: "LOW",
    status: "RESOLVED",
    title: "Maximum pallet height was recorded twice",
    targets: [{ item: "pallet-height" }, { topic: "receiving" }],
    assignee: { person: "eve" },
    resolution: { strategy: "MERGED", note: "Kept the fact under Receiving goods." },
    createdAt: ago(40),
    updatedAt: ago(20)
  },
  {
    key: "invoicing-category",
    type: "MISCLASSIFICATION",
    severity: "LOW",
    status: "DISMISSED",
    title: "Freight invoicing might belong under Operations",
    targets: [{ topic: "freight-invoicing" }, { category: "finance" }],
    resolution: { strategy: "NO_CHANGE_NEEDED", note: "Invoicing approvals are a finance control." },
    createdAt: ago(30),
    updatedAt: ago(25)
  }
]
