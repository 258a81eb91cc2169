import type { OrgFixtureInput } from "../org-import/schema.js"
import type { FixtureEvidence as Evidence } from "../org-import/schema-content.js"
import { batteryChargingProcedure } from "./documents/battery-charging-procedure.js"
import { customerReturnsProcess } from "./documents/customer-returns-process.js"
import { expenseTravelPolicy } from "./documents/expense-travel-policy.js"
import { incidentResponseRunbook } from "./documents/incident-response-runbook.js"
import { warehouseSafetyHandbook } from "./documents/warehouse-safety-handbook.js"

/**
 * The demo's library: four published documents given as markdown only, so
 * the import queues each for processing and the server's workers turn them
 * into chapters, topics, items, evidence and the search index on first
 * start; and one proposal waiting in the review lane. Each body's first line
 * is its H1 title.
 */
export const demoBodies = {
  handbook: warehouseSafetyHandbook,
  expenses: expenseTravelPolicy,
  incidents: incidentResponseRunbook,
  returns: customerReturnsProcess,
  battery: batteryChargingProcedure
} as const

type Content = NonNullable<OrgFixtureInput["content"]>[number]
type ReviewRequest = NonNullable<OrgFixtureInput["reviewRequests"]>[number]
type FixtureEvidence = Omit<Evidence, "chapter" | "seconds">

export const demoContent = (ago: (days: number) => string): ReadonlyArray<Content> => [
  {
    key: "warehouse-safety-handbook",
    title: "Warehouse Safety Handbook",
    summary: "PPE, forklifts, racking, docks, fire drills and incident reporting on the warehouse floor.",
    body: warehouseSafetyHandbook,
    createdBy: "chloe",
    createdAt: ago(40)
  },
  {
    key: "expense-travel-policy",
    title: "Expense and Travel Policy",
    summary: "Booking travel, spending limits, corporate cards, claims and approvals.",
    notes: "Finance: update the hotel limits in January.",
    body: expenseTravelPolicy,
    createdBy: "dan",
    createdAt: ago(25)
  },
  {
    key: "incident-response-runbook",
    title: "Incident Response Runbook",
    summary: "Severity levels, roles, containment, security incidents and post-incident reviews.",
    body: incidentResponseRunbook,
    createdBy: "ben",
    createdAt: ago(12)
  },
  {
    key: "customer-returns-process",
    type: "guide",
    title: "Customer Returns Process",
    summary: "From the return authorisation to grading, refunds and carrier claims.",
    visibility: "teams",
    teams: ["warehouse", "dispatch"],
    body: customerReturnsProcess,
    createdBy: "ben",
    createdAt: ago(5)
  },
  {
    key: "battery-charging-procedure",
    title: "Forklift Battery Charging Procedure",
    status: "in_review",
    visibility: "admins",
    body: batteryChargingProcedure,
    createdBy: "finn",
    createdAt: ago(1)
  }
]

export const demoReviewRequests = (ago: (days: number) => string): ReadonlyArray<ReviewRequest> => [
  { key: "battery-charging-review", content: "battery-charging-procedure", submitter: "finn", createdAt: ago(1) }
]

/** Evidence pointing at `text`, which must appear word for word in the document's body. */
const quote = (content: string, body: string, text: string, confidence = 0.9): FixtureEvidence => {
  const start = body.indexOf(text)
  if (start < 0) throw new Error(`demo evidence: "${text}" is not in ${content}`)
  return { content, quote: text, chars: [start, start + text.length], confidence }
}
const handbook = (text: string, confidence?: number) => quote("warehouse-safety-handbook", warehouseSafetyHandbook, text, confidence)

/** Where the demo's curated items are written down, by item key. */
export const demoItemEvidence: Record<string, ReadonlyArray<FixtureEvidence>> = {
  "inspection-checklist": [handbook("Every truck is inspected at the start of every shift, by the person who will drive it.")],
  "check-forks": [handbook("Check the forks and chains for cracks, bends and worn links.", 0.95)],
  "check-hydraulics": [handbook("Check the hydraulic lines and the mast for leaks.", 0.95)],
  "forklift-speed-limit": [handbook("Forklifts must never exceed 8 km/h inside the building, and 5 km/h in the aisles between racks.")],
  "pallet-height": [handbook("Pallets must never be stacked higher than 1.8 m on the floor")],
  "trailer-entry-checks": [handbook("Check the trailer's wheels are chocked or the vehicle restraint shows green.")],
  "dock-doors-closed": [handbook("Dock doors must always be closed when no trailer is at the bay.")],
  "report-within-24h": [handbook("Every incident and near miss must be reported within 24 hours.")],
  "near-miss-definition": [
    handbook("A near miss is any event that could have hurt someone or damaged goods but did not, such as a pallet falling into an empty aisle.", 0.8)
  ],
  "customer-notification": [
    quote(
      "customer-returns-process",
      customerReturnsProcess,
      "If a collection is delayed or missed, the customer must be told within 2 hours, and a new slot is offered on the same call.",
      0.7
    )
  ],
  "invoice-approval": [
    quote("expense-travel-policy", expenseTravelPolicy, "invoices above 10,000 need two approvals, and the second approver must be from the finance team.")
  ]
}
