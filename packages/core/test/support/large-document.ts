import { performance } from "node:perf_hooks"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { FixtureImporter } from "../../src/org-import/importer.js"
import { ContentProcessor } from "../../src/processing/processor.js"

/**
 * A deterministic markdown handbook of about `chars` characters: H2 sections
 * (some with H3 parts), paragraphs of plausible policy prose, and bullets
 * `- Name: sentence.` (the test extractor's items), one in four with a
 * nested bullet. Section names repeat now and then, as real handbooks do.
 */

// mulberry32: small, seedable, good enough to vary sentences.
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const roles = ["employee", "manager", "contractor", "team lead", "driver", "warehouse operator", "account executive", "engineer", "auditor", "new hire"]
const verbs = ["review", "approve", "record", "report", "check", "update", "archive", "sign", "submit", "escalate"]
const nouns = ["expense claim", "safety checklist", "purchase order", "customer complaint", "access request", "shift schedule", "incident report", "delivery note", "invoice", "training record", "vendor contract", "data export"]
const times = ["before the end of the month", "within two working days", "at the start of every shift", "before any payment is made", "once a quarter", "as soon as it is noticed", "before the customer is contacted", "after every delivery"]
const reasons = ["so that the audit trail stays complete", "because regulators ask for it", "to keep customers informed", "so that nothing is paid twice", "to protect personal data", "because the insurer requires it"]
const areas = ["Expenses", "Fleet safety", "Purchasing", "Customer care", "Access control", "Scheduling", "Incident handling", "Deliveries", "Invoicing", "Training", "Vendor management", "Data protection", "Onboarding", "Warehouse", "Travel"]
const categories = ["finance", "health-safety", "procurement", "customer-success", "it-security", "operations", "people", "legal-compliance"]

export const largeDocument = (chars: number, seed = 42): string => {
  const next = random(seed)
  const pick = <A>(list: ReadonlyArray<A>): A => list[Math.floor(next() * list.length)]!
  const sentence = () => {
    const templates = [
      () => `Every ${pick(roles)} must ${pick(verbs)} the ${pick(nouns)} ${pick(times)}.`,
      () => `The ${pick(nouns)} is kept for seven years ${pick(reasons)}.`,
      () => `A ${pick(roles)} may ${pick(verbs)} a ${pick(nouns)} on behalf of a colleague when the colleague is away.`,
      () => `Questions about the ${pick(nouns)} go to the ${pick(roles)} on duty, who answers ${pick(times)}.`,
      () => `We ${pick(verbs)} each ${pick(nouns)} ${pick(times)} ${pick(reasons)}.`
    ]
    return pick(templates)()
  }
  const paragraph = () => Array.from({ length: 3 + Math.floor(next() * 5) }, sentence).join(" ")
  const bullet = (indent: string) => {
    const text = sentence()
    const name = text.split(" ").slice(1, 4).join(" ").replace(/[.,]/g, "")
    return `${indent}- ${name[0]!.toUpperCase()}${name.slice(1)}: ${text}`
  }
  const parts: Array<string> = ["# Operations Handbook", "", paragraph(), ""]
  let length = parts.join("\n").length
  for (let section = 1; length < chars; section++) {
    const lines = [`## ${pick(areas)} ${section % 7 === 0 ? "" : `part ${section}`}`.trim(), `Category: ${pick(categories)}`, ""]
    const subsections = next() < 0.3 ? 3 : 0
    for (let part = 0; part <= subsections; part++) {
      if (part > 0) lines.push(`### ${pick(nouns)} details ${part}`, "")
      lines.push(paragraph(), "", paragraph(), "")
      for (let b = 0; b < 4; b++) {
        lines.push(bullet(""))
        if (next() < 0.25) lines.push(bullet("  "))
      }
      lines.push("")
    }
    const text = lines.join("\n")
    parts.push(text)
    length += text.length + 1
  }
  return parts.join("\n").slice(0, chars)
}

export interface LargeRun {
  readonly stages: ReadonlyArray<{ readonly stage: string; readonly ms: number }>
  readonly totalMs: number
  readonly made: { readonly chapters: number; readonly topics: number; readonly items: number; readonly evidence: number; readonly relations: number }
}

/**
 * Stores `body` as published content of a fresh organization and processes
 * it `runs` times with the pipeline's own code (ContentProcessor.process),
 * timing each run's stages (scripts/process-large-document.ts prints them).
 */
export const processLargeDocument = (body: string, runs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const processor = yield* ContentProcessor
    const imported = yield* Effect.flatMap(FixtureImporter, (importer) => importer.importOrganization({ organization: { name: "Large Document Org" } }))
    const orgId = imported.organizationId
    const contentId = "cnt_large_document"
    yield* sql`INSERT INTO content (org_id, id, type, title, body, status) VALUES (${orgId}, ${contentId}, 'document', 'large.md', ${body}, 'published')`
    const results: Array<LargeRun> = []
    for (let run = 0; run < runs; run++) {
      const started = performance.now()
      const outcome = yield* processor.process({ orgId, contentId })
      const totalMs = performance.now() - started
      const made = (yield* sql<LargeRun["made"]>`
        SELECT (SELECT count(*)::int FROM chapters WHERE content_id = ${contentId}) AS chapters,
               (SELECT count(*)::int FROM topics WHERE org_id = ${orgId}) AS topics,
               (SELECT count(*)::int FROM items WHERE org_id = ${orgId}) AS items,
               (SELECT count(*)::int FROM evidence WHERE content_id = ${contentId}) AS evidence,
               (SELECT count(*)::int FROM topic_relations WHERE org_id = ${orgId}) AS relations`)[0]!
      results.push({ stages: outcome._tag === "Processed" ? outcome.stages : [], totalMs, made })
    }
    return results
  })
