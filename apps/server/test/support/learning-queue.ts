import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { callerMatrixOnce } from "./callers.js"

/**
 * The organization the learning-queue tests read (with the caller matrix
 * merged in). Every fact a queue rule names is here once:
 *
 * People: Lena (the learner; reports to Mike, who reports to Gina), Pete
 * (Lena's peer, also under Mike), Dora (departed, under Mike, with a duty),
 * Sam (Engineer at Senior) and Jo (Engineer at Junior), Rae (only reads her
 * own queue, for the rate limit). The matrix's team admin administers
 * Support, Lena's team, without managing her.
 *
 * Lena's queue as she (or Mike, who reads what she reads) sees it, in rank order:
 * | entry | why |
 * |---|---|
 * | Vault onboarding (lesson, topicId null) | assigned, due 2026-01-01 (overdue); it covers only Vault secrets, in an admins-only space |
 * | Glossary | Support's INFORMED duty on the Library space; a topic obligation due in 3 days |
 * | Retrain | MASTERED; Support Agent's INFORMED duty; a completed lesson's retrainAt has passed |
 * | Basics | no mastery; her own RESPONSIBLE duty |
 * | Partial | PARTIAL; Support Agent's ACCOUNTABLE duty; a lesson on it started |
 * | Deepen | PARTIAL; Support Agent's RESPONSIBLE duty, nothing started |
 * | Advanced | Support's CONSULTED duties (topic and item); blocked by Basics and Zeta (not mastered), not by Foundations (mastered) |
 * Done (mastered, nothing due) and Zeta (no duty) are not in it. An admin
 * also opens the vault: Vault secrets is a topic entry, and Advanced's first
 * blocking prerequisite by name is Aardvark secret.
 *
 * Cara mastered three topics, each through a lesson completed on 2026-01-10
 * whose retrainAt (2026-02-01) has passed: Changed material (its lesson
 * retrains on changed material, and its content changed on 2026-03-01),
 * Unchanged material (same policy, content unchanged since 2025) and
 * Retaken (completed again on 2026-03-01). Only the first is due.
 *
 * Engineer duties, all RESPONSIBLE but the last: MIN_TIER Senior on Min tier,
 * MAX_TIER Junior on Max tier, EXACT_TIER Senior on Exact tier, ALL on All
 * tiers, and INFORMED MIN_TIER Junior on Seniority (both hold it PARTIAL:
 * Sam, senior to Junior, is expected to master it).
 */

const daysFromNow = (days: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + days * 86_400_000).toISOString()
export const glossaryDue = daysFromNow(3)
export const vaultDue = "2026-01-01T00:00:00.000Z"

const person = (key: string, name: string, extra: Record<string, unknown> = {}) => ({
  key,
  name,
  email: `${key}@queue.test`,
  role: "viewer" as const,
  tokenScopes: [],
  ...extra
})

/** A topic with one item that `content` is evidence for (so a lesson built on `content` covers it). */
const topic = (key: string, name: string, content: string, extra: Record<string, unknown> = {}) => ({
  key,
  name,
  items: [{ key: `${key}Item`, name: `${name} item`, kind: "fact" as const, evidence: [{ content, quote: name }] }],
  ...extra
})

const content = (key: string, title: string, visibility: "everyone" | "admins" = "everyone", updatedAt = "2025-12-01T00:00:00.000Z") => ({
  key,
  title,
  visibility,
  chapters: [{ text: `${title}: the text.` }],
  createdAt: "2025-12-01T00:00:00.000Z",
  updatedAt
})

const lesson = (key: string, title: string, pieces: ReadonlyArray<string>, visibility: "everyone" | "admins" = "everyone") => ({
  key,
  title,
  visibility,
  content: [...pieces]
})

const noQuiz = { questions: [] }

export const queueFixture: OrgFixtureInput = {
  organization: { name: "Queue Co", plan: "enterprise" },
  people: [
    person("gina", "Gina Grand"),
    person("mike", "Mike Manager", { manager: "gina" }),
    person("lena", "Lena Learner", { manager: "mike" }),
    person("pete", "Pete Peer", { manager: "mike" }),
    person("dora", "Dora Departed", { manager: "mike", status: "DEACTIVATED", deactivatedAt: "2026-02-01T00:00:00.000Z" }),
    person("sam", "Sam Senior"),
    person("jo", "Jo Junior"),
    person("rae", "Rae Rate"),
    person("cara", "Cara Changed")
  ],
  teams: [{ key: "support", name: "Support", members: [{ person: "lena" }, { person: "teamAdmin", role: "team-admin" }] }],
  companyRoles: [
    { key: "agent", name: "Support Agent", members: [{ person: "lena" }] },
    {
      key: "eng",
      name: "Engineer",
      tiers: [{ key: "junior", label: "Junior" }, { key: "senior", label: "Senior" }, { key: "lead", label: "Lead" }],
      members: [{ person: "sam", tier: "senior" }, { person: "jo", tier: "junior" }]
    }
  ],
  content: [
    content("cBasics", "Basics text"),
    content("cAdvanced", "Advanced text"),
    content("cPartial", "Partial text"),
    content("cDeepen", "Deepen text"),
    content("cRetrain", "Retrain text"),
    content("cDone", "Done text"),
    content("cGlossary", "Glossary text"),
    content("cEng", "Engineering text"),
    content("cVault", "Vault text", "admins"),
    content("cChanged", "Changed text", "everyone", "2026-03-01T00:00:00.000Z"),
    content("cUnchanged", "Unchanged text"),
    content("cRetaken", "Retaken text")
  ],
  spaces: [
    {
      key: "handbook",
      category: "operations",
      name: "Handbook",
      topics: [
        topic("basics", "Basics", "cBasics"),
        topic("foundations", "Foundations", "cBasics"),
        topic("zeta", "Zeta", "cBasics"),
        topic("advanced", "Advanced", "cAdvanced", { prerequisites: ["basics", "zeta", "foundations", "aardvark"] }),
        topic("partial", "Partial", "cPartial"),
        topic("deepen", "Deepen", "cDeepen"),
        topic("retrain", "Retrain", "cRetrain"),
        topic("done", "Done", "cDone")
      ]
    },
    { key: "library", category: "operations", name: "Library", topics: [topic("glossary", "Glossary", "cGlossary")] },
    {
      key: "engineering",
      category: "engineering",
      name: "Engineering",
      topics: [
        topic("tierMin", "Min tier", "cEng"),
        topic("tierMax", "Max tier", "cEng"),
        topic("tierExact", "Exact tier", "cEng"),
        topic("tierAll", "All tiers", "cEng"),
        topic("seniority", "Seniority", "cEng")
      ]
    },
    {
      key: "vault",
      category: "it-security",
      name: "Vault",
      visibility: "admins",
      topics: [topic("vaultSecrets", "Vault secrets", "cVault"), topic("aardvark", "Aardvark secret", "cVault")]
    },
    {
      key: "policies",
      category: "legal-compliance",
      name: "Policies",
      topics: [
        topic("changed", "Changed material", "cChanged"),
        topic("unchanged", "Unchanged material", "cUnchanged"),
        topic("retaken", "Retaken", "cRetaken")
      ]
    }
  ],
  lessons: [
    lesson("lBasics", "Basics course", ["cBasics"]),
    lesson("lAdvanced", "Advanced course", ["cAdvanced"]),
    lesson("lPartial", "Partial course", ["cPartial"]),
    lesson("lDeepen", "Deepen course", ["cDeepen"]),
    lesson("lRetrain", "Retrain course", ["cRetrain"]),
    lesson("lDone", "Done course", ["cDone"]),
    lesson("lGlossary", "Glossary course", ["cGlossary"]),
    lesson("lEng", "Engineering 101", ["cEng"]),
    lesson("lVault", "Vault onboarding", ["cVault"], "admins"),
    lesson("lChanged", "Changed course", ["cChanged"]),
    lesson("lUnchanged", "Unchanged course", ["cUnchanged"]),
    lesson("lRetaken", "Retaken course", ["cRetaken"])
  ],
  retrainingPolicies: [
    { lesson: "lChanged", intervalDays: 22, completionMode: "changed_material" },
    { lesson: "lUnchanged", intervalDays: 22, completionMode: "changed_material" },
    { lesson: "lRetaken", intervalDays: 22, completionMode: "full_retake" }
  ],
  duties: [
    { holder: { person: "lena" }, raci: "RESPONSIBLE", entity: { topic: "basics" } },
    { holder: { person: "lena" }, raci: "RESPONSIBLE", entity: { topic: "done" } },
    { holder: { team: "support" }, raci: "CONSULTED", entity: { topic: "advanced" } },
    { holder: { team: "support" }, raci: "CONSULTED", entity: { item: "advancedItem" } },
    { holder: { team: "support" }, raci: "INFORMED", entity: { space: "library" } },
    { holder: { role: "agent" }, raci: "ACCOUNTABLE", entity: { topic: "partial" } },
    { holder: { role: "agent" }, raci: "RESPONSIBLE", entity: { topic: "deepen" } },
    { holder: { role: "agent" }, raci: "INFORMED", entity: { topic: "retrain" } },
    { holder: { person: "dora" }, raci: "RESPONSIBLE", entity: { topic: "basics" } },
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "tierMin" }, tier: { qualifier: "MIN_TIER", tier: "senior" } },
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "tierMax" }, tier: { qualifier: "MAX_TIER", tier: "junior" } },
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "tierExact" }, tier: { qualifier: "EXACT_TIER", tier: "senior" } },
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "tierAll" } },
    { holder: { role: "eng" }, raci: "INFORMED", entity: { topic: "seniority" }, tier: { qualifier: "MIN_TIER", tier: "junior" } },
    { holder: { person: "cara" }, raci: "INFORMED", entity: { space: "policies" } }
  ],
  mastery: [
    { person: "lena", topic: "partial", level: "PARTIAL" },
    { person: "lena", topic: "deepen", level: "PARTIAL" },
    { person: "lena", topic: "retrain", level: "MASTERED" },
    { person: "lena", topic: "done", level: "MASTERED" },
    { person: "lena", topic: "foundations", level: "MASTERED" },
    { person: "sam", topic: "seniority", level: "PARTIAL" },
    { person: "jo", topic: "seniority", level: "PARTIAL" },
    ...["changed", "unchanged", "retaken"].map((topic) => ({ person: "cara", topic, level: "MASTERED" as const }))
  ],
  enrollments: [
    { person: "lena", lesson: "lPartial", startedAt: "2026-03-01T00:00:00.000Z", quiz: noQuiz },
    {
      person: "lena",
      lesson: "lRetrain",
      status: "completed",
      completedAt: "2026-01-10T00:00:00.000Z",
      retrainAt: "2026-02-01T00:00:00.000Z",
      quiz: noQuiz
    },
    { person: "lena", lesson: "lDone", status: "completed", completedAt: "2026-01-10T00:00:00.000Z", quiz: noQuiz },
    { person: "lena", lesson: "lVault", quiz: noQuiz },
    ...["lChanged", "lUnchanged", "lRetaken"].map((lesson) => ({
      person: "cara",
      lesson,
      status: "completed" as const,
      completedAt: "2026-01-10T00:00:00.000Z",
      retrainAt: "2026-02-01T00:00:00.000Z",
      quiz: noQuiz
    })),
    {
      person: "cara",
      lesson: "lRetaken",
      status: "completed",
      completedAt: "2026-03-01T00:00:00.000Z",
      retrainAt: "2099-01-01T00:00:00.000Z",
      quiz: noQuiz
    }
  ],
  obligations: [
    { person: "lena", lesson: "lVault", dueDate: vaultDue },
    { person: "lena", topic: "glossary", dueDate: glossaryDue }
  ]
}

/** The queue organization with the caller matrix, imported once per test file. */
export const queueOrganization = callerMatrixOnce(queueFixture)

/** "type name" of each entry, readable in a failing diff. */
export const line = (entry: { readonly type: string; readonly topicName: string }) => `${entry.type} ${entry.topicName}`
