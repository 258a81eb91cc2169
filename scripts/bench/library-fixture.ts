import type { FixtureContent, FixtureEvidence } from "@tks/core/org-import/schema-content"

type Content = typeof FixtureContent.Encoded
type Evidence = typeof FixtureEvidence.Encoded

/**
 * The generated library of the bench organization: content records with
 * their chapters (imported already processed, so the import indexes them
 * and no job runs), written from a fixed vocabulary with a seeded random
 * generator, so every run holds the same text. Words are drawn with a
 * Zipf-like skew, so full-text search meets both very common and rare words:
 *
 * - COMMON_WORD ("shipment") is the most frequent noun: in most chapters;
 * - MIDDLE_WORD ("forklift") is in a few percent of chapters, titles and topic names;
 * - SELECTIVE_WORD ("hydrant") is in one content record of every 1,000 only;
 * - TYPO_QUERY ("forklit") matches no word: only a typo-tolerant search finds forklift
 *   (pg_trgm word_similarity 0.75 against "forklift …" topic names and titles).
 */
export const COMMON_WORD = "shipment"
export const MIDDLE_WORD = "forklift"
export const SELECTIVE_WORD = "hydrant"
export const TYPO_QUERY = "forklit"
/** Every word of about one title in 200 (GET /v1/content?query=). */
export const TITLE_QUERY = "forklift checklist"

/** mulberry32: a small seeded generator, so the library is the same on every run. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
type Random = () => number

const pick = <A>(rand: Random, list: ReadonlyArray<A>): A => list[Math.floor(rand() * list.length)]!
/** Rank r is drawn with weight 1/(r+1): the head of the list is common, the tail rare. */
const zipf = <A>(list: ReadonlyArray<A>) => {
  const weights = list.map((_, r) => 1 / (r + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  return (rand: Random): A => {
    let x = rand() * total
    for (let r = 0; r < list.length; r++) {
      x -= weights[r]!
      if (x <= 0) return list[r]!
    }
    return list[list.length - 1]!
  }
}

// Most frequent first.
const nouns = [
  "shipment", "order", "pallet", "customer", "driver", "carrier", "invoice", "delivery", "route", "warehouse",
  "supplier", "trailer", "dock", "label", "manifest", "shift", "team lead", "scanner", "container", "inventory",
  "forklift", "consignment", "parcel", "depot", "rack", "picking list", "return", "claim", "quote", "contract",
  "budget", "purchase order", "audit", "incident", "permit", "vehicle", "tachograph", "fuel card", "cold chain", "temperature log",
  "customs declaration", "bill of lading", "safety vest", "loading bay", "conveyor", "barcode", "cycle count", "stock transfer", "seal", "tracking number",
  "dispatcher", "planner", "auditor", "reach truck", "battery", "charger", "sprinkler", "first aid kit", "helpdesk ticket", "password",
  "laptop", "firewall", "backup", "vendor", "tender", "freight rate", "surcharge", "credit note", "refund", "warranty"
]
const verbs = ["checks", "records", "approves", "scans", "books", "confirms", "reports", "inspects", "updates", "signs", "escalates", "reviews", "loads", "weighs", "labels"]
const adjectives = ["damaged", "urgent", "late", "incomplete", "signed", "sealed", "refrigerated", "oversized", "hazardous", "returned", "missing", "approved"]
const roles = ["the shift supervisor", "the driver", "the dispatcher", "the warehouse manager", "finance", "the team lead", "the safety officer", "customer service", "the planner", "IT support"]
const times = ["before the end of the shift", "within 24 hours", "every week", "at the start of each shift", "within 2 working days", "before departure", "on arrival", "once a month", "within 30 minutes", "every quarter"]
const rules = ["must", "must never", "should always", "is required to", "may only"]

const noun = zipf(nouns)
const number = (rand: Random) => String(pick(rand, [2, 3, 5, 8, 10, 12, 15, 24, 30, 48, 60, 90, 100, 250, 500, 1000, 2500, 10000]))

const templates: ReadonlyArray<(rand: Random) => string> = [
  (r) => `${cap(pick(r, roles))} ${pick(r, verbs)} every ${noun(r)} ${pick(r, times)}.`,
  (r) => `A ${pick(r, adjectives)} ${noun(r)} ${pick(r, rules)} be reported to ${pick(r, roles)} ${pick(r, times)}.`,
  (r) => `Each ${noun(r)} above ${number(r)} kg needs a second ${noun(r)} and the approval of ${pick(r, roles)}.`,
  (r) => `Never move a ${noun(r)} without a ${noun(r)}; ${pick(r, roles)} ${pick(r, verbs)} it first.`,
  (r) => `The ${noun(r)} is kept for ${number(r)} days with the ${noun(r)} it belongs to.`,
  (r) => `Always ${pick(r, ["check", "scan", "photograph", "weigh", "label"])} the ${noun(r)} and the ${noun(r)} ${pick(r, times)}.`,
  (r) => `Last year ${number(r)} ${noun(r)} records were ${pick(r, adjectives)}, mostly because the ${noun(r)} was ${pick(r, adjectives)}.`,
  (r) => `If the ${noun(r)} is ${pick(r, adjectives)}, ${pick(r, roles)} ${pick(r, verbs)} the ${noun(r)} and tells the ${noun(r)} owner.`
]

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const sentence = (rand: Random) => pick(rand, templates)(rand)

const headlines = [
  "Scope", "Responsibilities", "Before you start", "Step by step", "Approvals", "Records", "Exceptions", "Safety rules", "Escalation",
  "Checks at the dock", "Reporting", "Training", "Costs and limits", "Handover", "Definitions", "Measures", "Tools", "Contacts"
]
const areas = [
  "Forklift", "Dock scheduling", "Freight invoicing", "Cold chain", "Customs", "Returns", "Cycle counting", "Route planning", "Driver onboarding",
  "Incident", "Fire safety", "Expense", "Carrier selection", "Pallet storage", "Hazardous goods", "Backup", "Password", "Tachograph", "Yard", "Cross-docking"
]
const kinds = ["Policy", "Procedure", "Checklist", "Guide", "Handbook", "Runbook", "Standard", "Playbook", "Overview", "Training notes"]
const sites = ["Rotterdam", "Leeds", "Hamburg", "Lyon", "Milan", "Gdansk", "Valencia", "Antwerp"]

/** A topic name: 20 areas x 25 aspects x the space's number make 5,000 distinct names. */
const aspects = [
  "basics", "inspection", "approvals", "reporting", "scheduling", "exceptions", "records", "training", "audits", "costs", "safety checks",
  "handover", "escalation", "tools", "limits", "roles", "metrics", "planning", "claims", "labels", "storage", "returns", "permits", "contacts", "checklist"
]
export const topicName = (space: number, topic: number) =>
  `${areas[(space + topic) % areas.length]} ${aspects[topic % aspects.length]} (${sites[space % sites.length]} ${space})`

/** An item name: a rule or fact in the library's vocabulary. */
export const itemName = (rand: Random) => sentence(rand).slice(0, 120)

export interface Library {
  readonly content: ReadonlyArray<Content>
  /** Evidence quoting the first sentence of content `n`'s first chapter. */
  readonly evidenceFor: (n: number) => Evidence
}

/**
 * `count` published content records, newest first by index (two records
 * share each timestamp, so the id breaks ties): 90% documents, 7% guides, 3%
 * videos; visible to everyone, or to one of `teams` (10%), or to admins (5%);
 * one to three chapters of three to six sentences.
 */
export const generateLibrary = (count: number, teams: ReadonlyArray<string>, now: Date): Library => {
  const rand = random(6)
  const content: Array<Content> = []
  const firstSentences: Array<readonly [string, string]> = []
  for (let i = 0; i < count; i++) {
    const chapterCount = pick(rand, [1, 1, 1, 1, 1, 2, 2, 2, 3, 3])
    const chapters = Array.from({ length: chapterCount }, () => ({
      headline: pick(rand, headlines),
      text: Array.from({ length: 2 + Math.floor(rand() * 3) }, () => sentence(rand)).join(" ")
    }))
    if (i % 1000 === 500) chapters[0] = { ...chapters[0]!, text: `${chapters[0]!.text} The ${SELECTIVE_WORD} at dock ${i % 40} is tested every month.` }
    firstSentences.push([chapters[0]!.headline, chapters[0]!.text.slice(0, chapters[0]!.text.indexOf(".") + 1)])
    const type = i % 100 < 3 ? "video" : i % 100 < 10 ? "guide" : "document"
    const visibility = i % 10 === 3 && teams.length > 0 ? "teams" : i % 20 === 7 ? "admins" : "everyone"
    const area = pick(rand, areas)
    content.push({
      key: `c${i}`,
      type,
      title: `${area} ${pick(rand, kinds).toLowerCase()} for ${sites[i % sites.length]}, rev. ${1 + (i % 37)}`,
      summary: i % 4 === 0 ? null : sentence(rand),
      visibility,
      ...(visibility === "teams" ? { teams: [teams[i % teams.length]!] } : {}),
      chapters,
      ...(type === "video"
        ? { videoId: `bench${String(i).padStart(6, "0")}`, durationSeconds: 60 + (i % 1800), sourceUrl: `https://video.example/watch?v=${i}` }
        : {}),
      createdAt: new Date(now.getTime() - Math.floor(i / 2) * 3_600_000).toISOString()
    })
  }
  const evidenceFor = (n: number): Evidence => {
    const [headline, quote] = firstSentences[n]!
    // The body is written from the chapters: "## headline", a blank line, the text (bodyOf in plan-content.ts).
    const start = `## ${headline}\n\n`.length
    return { content: `c${n}`, quote, chars: [start, start + quote.length], chapter: 1, confidence: 0.6 + (n % 4) / 10 }
  }
  return { content, evidenceFor }
}
