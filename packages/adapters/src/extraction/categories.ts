import { categories, type CategorySlug } from "@tks/domain/knowledge"

/**
 * Which of the 14 categories a text is about, by a keyword vocabulary.
 * `stem*` matches any word that begins with the stem; a bare word matches
 * itself and its plural. Stems that would collide across categories are
 * written as whole words ("merger" for strategy, "merge" for engineering).
 */
const vocabulary: Record<CategorySlug, ReadonlyArray<string>> = {
  strategy: [
    "strateg*", "vision", "mission", "okr", "roadmap*", "objective*", "competit*", "initiative*", "prioriti*",
    "board", "investor*", "shareholder*", "growth", "merger", "acquisition*", "differentiat*", "positioning",
    "long-term", "milestone*", "ambition*", "outlook"
  ],
  sales: [
    "sales", "sell*", "seller*", "deal", "prospect*", "quota*", "crm", "salesforce", "opportunit*", "discount*",
    "pricing", "proposal*", "commission*", "upsell*", "cross-sell*", "bookings", "territor*", "outbound",
    "demo", "closing", "pipeline", "win-loss"
  ],
  marketing: [
    "marketing", "market", "campaign*", "brand*", "advertis*", "seo", "social", "newsletter*", "audience*",
    "webinar*", "press", "publicit*", "persona*", "messaging", "impression*", "conversion*", "funnel*",
    "sponsor*", "influencer*", "blog*", "launch"
  ],
  "customer-success": [
    "customer*", "client*", "support", "ticket*", "churn*", "renewal*", "retention", "satisfaction", "nps",
    "csat", "escalat*", "complaint*", "helpdesk", "adoption", "sla", "feedback", "success", "upgrade*",
    "account-manager*", "qbr"
  ],
  product: [
    "product", "products", "feature*", "backlog*", "prototype*", "ux", "ui", "usability", "design", "designs", "designer*", "discovery", "mvp",
    "specification*", "beta", "user story", "requirement", "wireframe*", "mockup*", "changelog*"
  ],
  engineering: [
    "code", "coding", "software", "engineer*", "deploy*", "repositor*", "git", "github", "api", "architect*",
    "database*", "server*", "build", "builds", "ci", "merge", "merged", "branch*", "refactor*", "debug*",
    "bug", "microservice*", "latency", "kubernetes", "docker", "programming", "compil*", "frontend", "backend",
    "test", "tests", "testing"
  ],
  operations: [
    "operation*", "procedure*", "workflow*", "logistic*", "shipping", "shipment*", "inventor*", "warehouse*",
    "supply", "fulfil*", "schedul*", "capacity", "efficien*", "quality", "sop", "checklist*", "handover*",
    "dispatch*", "delivery", "deliveries", "throughput", "runbook*", "shift"
  ],
  finance: [
    "financ*", "expense*", "reimburs*", "budget*", "invoic*", "payment*", "payable*", "receivable*",
    "accounting", "accountant*", "tax", "taxes", "vat", "cost*", "spend*", "receipt*", "cash", "ledger*",
    "fiscal", "forecast*", "capex", "opex", "diem", "mileage", "refund*", "profit*", "treasury", "bank*",
    "currenc*", "dollar*", "usd", "eur", "credit", "allowance*"
  ],
  people: [
    "employee*", "staff", "hr", "hiring", "hire*", "recruit*", "onboard*", "offboard*", "talent*", "benefit*",
    "leave", "vacation*", "holiday*", "pto", "parental", "salar*", "compensation", "payroll", "career*",
    "manager*", "mentor*", "wellbeing", "diversity", "inclusion", "culture", "handbook*", "interview*",
    "candidate*", "appraisal*", "probation*", "sick", "absence*", "overtime", "buddy", "colleague*", "new hire"
  ],
  "legal-compliance": [
    "legal*", "law", "laws", "lawyer*", "attorney*", "complian*", "regulat*", "gdpr", "consent*", "liabilit*",
    "litigation", "clause*", "agreement*", "nda", "intellectual", "trademark*", "copyright*", "patent*",
    "licens*", "jurisdiction*", "statut*", "sanction*", "bribery", "corruption", "whistleblow*", "ethic*",
    "court*", "dispute*", "contract*", "audit*", "privacy"
  ],
  "it-security": [
    "security", "secur*", "password*", "passphrase*", "mfa", "2fa", "authenticat*", "phishing", "malware",
    "ransomware", "virus*", "encrypt*", "vpn", "firewall*", "laptop*", "device*", "credential*", "patch*",
    "vulnerab*", "breach*", "sso", "login*", "backup*", "antivirus", "endpoint*", "cyber*", "threat*",
    "attack*", "privileg*", "wifi", "usb", "incident*", "access"
  ],
  "health-safety": [
    "safety", "safe", "health*", "hazard*", "injur*", "accident*", "aid", "fire", "fires", "evacuat*",
    "emergenc*", "ppe", "protective", "helmet*", "glove*", "chemical*", "ergonom*", "osha", "lifting",
    "spill*", "hygiene", "sanitiz*", "exposure", "alarm*", "extinguisher*", "medical", "illness*", "hazmat"
  ],
  facilities: [
    "facilit*", "office", "offices", "building*", "desk", "desks", "room*", "parking", "badge*", "reception*", "cleaning",
    "janitor*", "maintenance", "heating", "hvac", "lighting", "kitchen*", "furniture", "premises", "floor*",
    "elevator*", "visitor*", "mailroom", "printer*", "workspace*", "seating", "canteen", "lease"
  ],
  procurement: [
    "procure*", "purchas*", "supplier*", "vendor*", "sourcing", "tender*", "rfp", "rfq", "rfi", "bid", "bids",
    "bidding", "quotation*", "requisition*", "buying", "buyer*", "catalog*", "po", "contract*", "negotiat*"
  ]
}

const exact = new Map<string, Array<CategorySlug>>()
const prefixes = new Map<string, Array<CategorySlug>>()
const prefixLengths = new Set<number>()
const add = (map: Map<string, Array<CategorySlug>>, key: string, slug: CategorySlug) => {
  const list = map.get(key) ?? []
  if (!list.includes(slug)) list.push(slug)
  map.set(key, list)
}
for (const { slug } of categories) {
  for (const entry of vocabulary[slug]) {
    // Multi-word entries count by their last word ("new hire" -> hire): tokens are single words.
    const word = entry.split(" ").at(-1) ?? entry
    if (word.endsWith("*")) {
      const stem = word.slice(0, -1)
      add(prefixes, stem, slug)
      prefixLengths.add(stem.length)
    } else {
      add(exact, word, slug)
    }
  }
}
const lengths = [...prefixLengths].sort((a, b) => a - b)

export type CategoryScores = Map<CategorySlug, number>

/** Adds `weight` to each category a word of `text` belongs to; `scores` is updated in place. */
export const scoreCategories = (text: string, scores: CategoryScores, weight = 1): number => {
  let words = 0
  for (const [token] of text.toLowerCase().matchAll(/[a-z0-9][a-z0-9-]*/g)) {
    words++
    const hit = new Set<CategorySlug>(exact.get(token) ?? exact.get(token.replace(/e?s$/, "")) ?? [])
    for (const length of lengths) {
      if (length > token.length) break
      for (const slug of prefixes.get(token.slice(0, length)) ?? []) hit.add(slug)
    }
    for (const slug of hit) scores.set(slug, (scores.get(slug) ?? 0) + weight)
  }
  return words
}

/**
 * The category of a topic: its own keyword rate, plus half the document's rate
 * so a short section stays with the document's subject. No keyword at all:
 * operations, the catch-all.
 */
export const chooseCategory = (
  topic: { readonly scores: CategoryScores; readonly words: number },
  document: { readonly scores: CategoryScores; readonly words: number }
): CategorySlug => {
  let best: CategorySlug = "operations"
  let bestScore = 0
  for (const { slug } of categories) {
    const score = (topic.scores.get(slug) ?? 0) / (topic.words + 20) +
      0.5 * (document.scores.get(slug) ?? 0) / (document.words + 20)
    if (score > bestScore) {
      best = slug
      bestScore = score
    }
  }
  return best
}
