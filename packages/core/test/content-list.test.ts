import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { Content, ContentListParams } from "@tks/domain/content"
import { policies } from "@tks/domain/policies"
import { shelf, shelfNote, shelfPublished, shelfTieInstant } from "@tks/core/testing/content-library"
import { acme, other } from "@tks/core/testing/organizations"
import { ContentLibrary } from "../src/content/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, ContentLibrary.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other, shelf })

const list = (org: Imported, key: string, params: ContentListParams = {}) =>
  ContentLibrary.pipe(Effect.flatMap((library) => library.list(org.access(key, policies.content.list), params)))
const titles = (rows: ReadonlyArray<Content>) => rows.map((row) => row.title)

/** Shelf's content as Olga (the owner) sees it: titles, newest first. */
const asOwner = (params: ContentListParams = {}) =>
  Effect.flatMap(setup, ({ shelf }) => list(shelf, "olga", params)).pipe(Effect.map((page) => titles(page.data)))

const walk = (org: Imported, key: string, params: ContentListParams) =>
  Effect.gen(function*() {
    const seen: Array<Content> = []
    let cursor: string | undefined = undefined
    for (let pages = 0; pages < 100; pages++) {
      const page: { data: ReadonlyArray<Content>; nextCursor: string | null } = yield* list(org, key, {
        ...params,
        ...(cursor === undefined ? {} : { cursor })
      })
      seen.push(...page.data)
      if (page.nextCursor === null) return seen
      cursor = page.nextCursor
    }
    throw new Error("pagination did not end")
  })

/** Acme's published content, newest first (acme-content.ts). */
const acmeAll = ["Safety Guide", "Fire Drill Walkthrough", "Vault Key Policy", "Ops Pager Runbook", "Deployment Guide", "Quarterly Planning Notes"]
const acmeEveryone = ["Safety Guide", "Fire Drill Walkthrough", "Deployment Guide", "Quarterly Planning Notes"]
const acmeOps = ["Safety Guide", "Fire Drill Walkthrough", "Ops Pager Runbook", "Deployment Guide", "Quarterly Planning Notes"]

layer(TestLayer)("GET /v1/content", (it) => {
  it.effect("organization admins (owner, admin, billing admin) list every published record, newest first", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      for (const key of ["olivia", "adam", "bella"]) {
        const page = yield* list(acme, key)
        expect(titles(page.data), key).toEqual(acmeAll)
        expect(page.nextCursor).toBeNull()
      }
    }))

  it.effect("a viewer lists content shared with everyone and with their teams: Victor and Tara (Ops) see the Ops runbook, Liam does not", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(titles((yield* list(acme, "victor")).data)).toEqual(acmeOps)
      expect(titles((yield* list(acme, "tara")).data)).toEqual(acmeOps)
      expect(titles((yield* list(acme, "liam")).data)).toEqual(acmeEveryone)
    }))

  it.effect("an external account lists only content of teams they are on: nothing in acme, the Red plan for Xena on Red", () =>
    Effect.gen(function*() {
      const { acme, shelf } = yield* setup
      expect((yield* list(acme, "ella")).data).toEqual([])
      // Omar is on Partners, which no acme content is shared with.
      expect((yield* list(acme, "omar")).data).toEqual([])
      expect(titles((yield* list(shelf, "xena")).data)).toEqual(["Red Team Safety Plan"])
      expect((yield* list(shelf, "xavi")).data).toEqual([])
    }))

  it.effect("content shared with a team is listed for its members only (Vera on Red, Bo on Blue)", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      const vera = titles((yield* list(shelf, "vera")).data)
      const bo = titles((yield* list(shelf, "bo")).data)
      expect(vera).toContain("Red Team Safety Plan")
      expect(vera).not.toContain("Blue Team Notes")
      expect(bo).toContain("Blue Team Notes")
      expect(bo).not.toContain("Red Team Safety Plan")
      for (const seen of [vera, bo]) expect(seen).not.toContain("Admins Safety Audit")
    }))

  it.effect("drafts, records in review, rejected and withdrawn ones are never listed, not even for the owner", () =>
    Effect.gen(function*() {
      const all = yield* asOwner()
      expect([...all].sort()).toEqual(shelfPublished.map((record) => record.title).sort())
      for (const title of ["Safety Draft", "Safety In Review", "Safety Rejected", "Safety Withdrawn"]) expect(all).not.toContain(title)
      expect(yield* asOwner({ query: "draft" })).toEqual([])
    }))

  it.effect("another organization's admin lists only their own organization's content", () =>
    Effect.gen(function*() {
      const { other } = yield* setup
      expect((yield* list(other, "otto")).data).toEqual([])
    }))

  it.effect("query: every word must be in the title, in any order, ignoring case and extra spaces", () =>
    Effect.gen(function*() {
      const forklift = ["safety FORKLIFT refresher", "Forklift Safety Basics"]
      expect(yield* asOwner({ query: "safety forklift" })).toEqual(forklift)
      expect(yield* asOwner({ query: "FORKLIFT  safety" })).toEqual(forklift)
      expect(yield* asOwner({ query: "  basics\tSAFETY " })).toEqual(["Basics of Safety", "Forklift Safety Basics"])
      expect(yield* asOwner({ query: "fork lift" })).toEqual(forklift)
      expect(yield* asOwner({ query: "forklift nowhere" })).toEqual([])
      expect(yield* asOwner({ query: "safety" })).toEqual([
        "Admins Safety Audit",
        "Red Team Safety Plan",
        "Basics of Safety",
        "safety FORKLIFT refresher",
        "Forklift Safety Basics"
      ])
      // Only spaces: no words, no filter.
      expect(yield* asOwner({ query: "   " })).toEqual(yield* asOwner())
    }))

  it.effect("LIKE wildcards and the backslash in a query match themselves", () =>
    Effect.gen(function*() {
      expect(yield* asOwner({ query: "%" })).toEqual(["100% Sure_Thing Checklist"])
      expect(yield* asOwner({ query: "_" })).toEqual(["100% Sure_Thing Checklist"])
      // Unescaped, e_t would also match "Blue Team Notes" ("e t").
      expect(yield* asOwner({ query: "e_t" })).toEqual(["100% Sure_Thing Checklist"])
      expect(yield* asOwner({ query: "\\" })).toEqual(["Back\\slash Memo"])
      expect(yield* asOwner({ query: "k\\s" })).toEqual(["Back\\slash Memo"])
    }))

  it.effect("type keeps one kind; durationSeconds is a video's only, whatever a document stores", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      const videos = (yield* list(shelf, "olga", { type: "video" })).data
      expect(videos).toEqual([expect.objectContaining({ title: "safety FORKLIFT refresher", type: "video", durationSeconds: 300 })])
      expect(yield* asOwner({ type: "guide" })).toEqual(["Basics of Safety"])
      const documents = (yield* list(shelf, "olga", { type: "document" })).data
      expect(documents.map((row) => row.type)).toEqual(documents.map(() => "document"))
      expect(documents).toHaveLength(shelfPublished.length - 2)
      expect(documents.find((row) => row.title === "Forklift Safety Basics")?.durationSeconds).toBeNull()
      expect(yield* asOwner({ type: "video", query: "basics" })).toEqual([])
    }))

  it.effect("a listed record carries exactly the contract's fields; editorial notes never appear", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      const page = yield* list(shelf, "olga", { query: "forklift basics" })
      const id = shelf.ids.content["forklift"]!
      expect(page.data).toEqual([{
        id,
        title: "Forklift Safety Basics",
        type: "document",
        summary: "Before the first shift",
        durationSeconds: null,
        url: `http://localhost:3000/v1/content/${id}`,
        createdAt: "2026-01-03T09:00:00.000Z",
        updatedAt: "2026-01-20T09:00:00.000Z"
      }])
      expect(JSON.stringify(yield* list(shelf, "olga"))).not.toContain(shelfNote)
    }))

  it.effect("pages of 1, 2 and 5 walk the listing newest first, records created at one instant by id, none twice", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      const full = (yield* list(shelf, "olga")).data
      const ties = full.filter((row) => row.createdAt === shelfTieInstant)
      expect(ties.map((row) => row.id)).toEqual(ties.map((row) => row.id).sort().reverse())
      expect(ties).toHaveLength(3)
      const expected = [...full].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1))
      expect(full).toEqual(expected)
      for (const limit of [1, 2, 5]) expect(yield* walk(shelf, "olga", { limit })).toEqual(full)
      expect(titles(yield* walk(shelf, "vera", { limit: 2, query: "safety" }))).toEqual(["Red Team Safety Plan", "Basics of Safety", "safety FORKLIFT refresher", "Forklift Safety Basics"])
    }))

  it.effect("a cursor from another filter, another caller, another organization or a tampered one is INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { acme, other, shelf } = yield* setup
      const cursor = (yield* list(shelf, "olga", { limit: 1 })).nextCursor!
      for (
        const attempt of [
          list(shelf, "olga", { cursor, query: "safety" }),
          list(shelf, "olga", { cursor, type: "video" }),
          list(shelf, "vera", { cursor }),
          list(acme, "olivia", { cursor }),
          list(other, "otto", { cursor }),
          list(shelf, "olga", { cursor: `${cursor}x` })
        ]
      ) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }
    }))
})
