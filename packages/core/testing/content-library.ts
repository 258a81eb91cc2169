import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * **shelf**: a small organization for the library reads where
 * acme has no case: an external account on a team that content is shared
 * with, titles with LIKE wildcards, several records created at one instant,
 * a document with a stored duration, every unpublished status, more than 20
 * lessons and sole-evidence topics for one record, and evidence on records
 * out of the live graph or in spaces some readers cannot read.
 *
 * | key | role | teams |
 * |---|---|---|
 * | olga | owner | |
 * | vera | viewer | Red |
 * | xena | external | Red |
 * | xavi | external | none |
 * | bo | viewer | Blue |
 *
 * Everyone has a token. Emails are `<key>@shelf.test`.
 */

const day = (n: number) => `2026-01-${String(n).padStart(2, "0")}T09:00:00.000Z`
/** Three records created at this same instant (ordered by id among themselves). */
export const shelfTieInstant = "2026-01-06T00:00:00.000Z"

type Content = NonNullable<OrgFixtureInput["content"]>[number]
type Space = NonNullable<OrgFixtureInput["spaces"]>[number]
type Lesson = NonNullable<OrgFixtureInput["lessons"]>[number]

export const shelfNote = "SECRET-NOTE: never returned"

/** Published records, by key, oldest first. */
export const shelfPublished: ReadonlyArray<Content> = [
  { key: "popular", title: "Popular Primer", createdAt: "2025-12-01T09:00:00.000Z" },
  { key: "wild", title: "100% Sure_Thing Checklist", createdAt: day(1) },
  { key: "slash", title: "Back\\slash Memo", createdAt: day(2) },
  {
    key: "forklift",
    title: "Forklift Safety Basics",
    summary: "Before the first shift",
    notes: shelfNote,
    durationSeconds: 99,
    chapters: [{ headline: "Inspect", text: "Inspect the forks." }, { headline: null, text: "Charge overnight." }],
    createdAt: day(3),
    updatedAt: day(20)
  },
  { key: "refresher", type: "video", title: "safety FORKLIFT refresher", videoId: "abcdefghijk", durationSeconds: 300, createdAt: day(4) },
  { key: "guide", type: "guide", title: "Basics of Safety", createdAt: day(5) },
  { key: "tieA", title: "Tie Alpha", createdAt: shelfTieInstant },
  { key: "tieB", title: "Tie Beta", createdAt: shelfTieInstant },
  { key: "tieC", title: "Tie Gamma", createdAt: shelfTieInstant },
  { key: "red", title: "Red Team Safety Plan", visibility: "teams", teams: ["red"], chapters: [{ text: "Red plan." }], createdAt: day(7) },
  { key: "blue", title: "Blue Team Notes", visibility: "teams", teams: ["blue"], createdAt: day(8) },
  { key: "admins", title: "Admins Safety Audit", visibility: "admins", createdAt: day(9) }
]

/** Never listed nor readable, though newer than everything and matching "safety". */
export const shelfUnpublished: ReadonlyArray<Content> = [
  { key: "draft", title: "Safety Draft", status: "draft", body: "Later.", createdAt: day(10) },
  { key: "inReview", title: "Safety In Review", status: "in_review", createdAt: day(11) },
  { key: "rejected", title: "Safety Rejected", status: "rejected", createdAt: day(12) },
  { key: "withdrawn", title: "Safety Withdrawn", status: "withdrawn", createdAt: day(13) }
]

const from = (content: string, quote: string) => ({ content, quote })

/** How many lessons and sole-evidence topics the Popular Primer has: more than a preview holds. */
export const shelfPopularLessons = 25
export const shelfPopularTopics = 21
const two = (n: number) => String(n).padStart(2, "0")

const spaces: ReadonlyArray<Space> = [
  {
    key: "warehouse",
    category: "operations",
    name: "Warehouse",
    topics: [
      {
        key: "forklifts",
        name: "Forklifts",
        items: [
          // Two pieces of evidence on one item: it counts once.
          { key: "inspect", name: "Inspect forks", kind: "process", evidence: [from("forklift", "Inspect"), from("forklift", "the forks")] },
          { key: "charge", name: "Charge overnight", kind: "fact", evidence: [from("forklift", "Charge"), from("refresher", "charging")] },
          {
            key: "oldRule",
            name: "Old rule",
            kind: "policy",
            state: "archived",
            evidence: [from("forklift", "old")],
            children: [{ key: "underOld", name: "Under old rule", kind: "fact", evidence: [from("forklift", "under")] }]
          },
          { key: "redCheck", name: "Red check", kind: "fact", evidence: [from("red", "Red plan.")] }
        ]
      },
      {
        key: "racking",
        name: "racking",
        items: [
          { key: "rack", name: "Rack heights", kind: "fact", evidence: [from("forklift", "racks")] },
          // The only other evidence sits on a superseded item: Racking still rests on the forklift basics alone.
          { key: "rackOld", name: "Old rack heights", kind: "fact", state: "superseded", evidence: [from("refresher", "racks")] }
        ]
      },
      { key: "loading", name: "Loading", items: [{ key: "dock", name: "Dock safety", kind: "process", evidence: [from("refresher", "dock")] }] },
      {
        key: "gone",
        name: "Gone topic",
        state: "archived",
        items: [{ key: "goneItem", name: "Gone item", kind: "fact", evidence: [from("forklift", "gone")] }]
      }
    ]
  },
  {
    key: "vault",
    category: "it-security",
    name: "Vault",
    visibility: "admins",
    topics: [{ key: "audits", name: "Audits", items: [{ key: "audit", name: "Audit forklifts", kind: "fact", evidence: [from("forklift", "audit")] }] }]
  },
  {
    key: "redRoom",
    category: "operations",
    name: "Red room",
    visibility: "teams",
    teams: ["red"],
    topics: [{ key: "redTopic", name: "Red topic", items: [{ key: "redItem", name: "Red item", kind: "fact", evidence: [from("red", "Red plan.")] }] }]
  },
  {
    key: "many",
    category: "people",
    name: "Many topics",
    topics: Array.from({ length: shelfPopularTopics }, (_, i) => ({
      key: `many${two(i + 1)}`,
      name: `Many ${two(i + 1)}`,
      items: [{ key: `manyItem${two(i + 1)}`, name: `Many item ${two(i + 1)}`, kind: "fact" as const, evidence: [from("popular", "many")] }]
    }))
  }
]

const lessons: ReadonlyArray<Lesson> = [
  { key: "openRed", title: "Open red lesson", content: ["red"] },
  { key: "redDrill", title: "Red drill", visibility: "teams", teams: ["red"], content: ["red", "forklift"] },
  { key: "adminRed", title: "Admin red lesson", visibility: "admins", content: ["red"] },
  // The Popular Primer twice in the first one: a lesson counts once.
  ...Array.from({ length: shelfPopularLessons }, (_, i) => ({
    key: `popular${two(i + 1)}`,
    title: `Popular lesson ${two(i + 1)}`,
    content: i === 0 ? ["popular", "popular"] : ["popular"]
  }))
]

const person = (key: string, role: "owner" | "viewer" | "external") => ({
  key,
  name: `${key[0]!.toUpperCase()}${key.slice(1)} Shelf`,
  email: `${key}@shelf.test`,
  role,
  tokenScopes: []
})

export const shelf: OrgFixtureInput = {
  organization: { name: "Shelf" },
  people: [person("olga", "owner"), person("vera", "viewer"), person("xena", "external"), person("xavi", "external"), person("bo", "viewer")],
  teams: [
    { key: "red", name: "Red", members: [{ person: "vera" }, { person: "xena" }] },
    { key: "blue", name: "Blue", members: [{ person: "bo" }] }
  ],
  spaces,
  lessons,
  content: [...shelfPublished, ...shelfUnpublished]
}
