import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Page } from "../src/common/pagination.js"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { IssueListParams, IssueSummary } from "@tks/domain/issue"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { DataQualityIssues } from "../src/issues/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

/** GET /v1/issues over acme's issues (testing/acme-issues.ts, which tabulates who reads what). */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, DataQualityIssues.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const list = (org: Imported, key: string, params: IssueListParams = {}) =>
  DataQualityIssues.pipe(Effect.flatMap((issues) => issues.list(org.access(key, policies.issues.list), params)))

/** Every page of a listing, following nextCursor. */
const walk = (org: Imported, key: string, params: IssueListParams) =>
  Effect.gen(function*() {
    const pages: Array<ReadonlyArray<IssueSummary>> = []
    let cursor: string | undefined = undefined
    do {
      const page: Page<IssueSummary> = yield* list(org, key, { ...params, ...(cursor === undefined ? {} : { cursor }) })
      pages.push(page.data)
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined)
    return pages
  })

/** The two issues made at the same instant come by id, descending. */
const tiePair = (org: Imported) =>
  [org.ids.issues.tieOther!, org.ids.issues.draftOnly!].sort().reverse()

const idsOf = (org: Imported, keys: ReadonlyArray<string>) => keys.map((key) => org.ids.issues[key]!)

layer(TestLayer)("GET /v1/issues", (it) => {
  it.effect("an organization admin lists every issue, most recent first, ties by id descending", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page: Page<IssueSummary> = yield* list(acme, "adam")
      expect(page.nextCursor).toBeNull()
      expect(page.data.map((issue) => issue.id)).toEqual([
        ...tiePair(acme),
        ...idsOf(acme, ["categoryMisfile", "noTarget", "archivedDuplicate", "oncallGap", "secretsStale", "deployConflict"])
      ])
    }))

  it.effect("a row carries its fields, its assignee and how many targets it has (a reader who is not an admin reads every one)", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const byId = (data: ReadonlyArray<IssueSummary>, key: string) => data.find((issue) => issue.id === acme.ids.issues[key])
      const admin = (yield* list(acme, "adam")).data
      expect(byId(admin, "oncallGap")).toEqual({
        id: acme.ids.issues.oncallGap,
        type: "CONTENT_GAP",
        severity: "MEDIUM",
        status: "IN_PROGRESS",
        title: "On-call has no escalation steps",
        assignee: { type: "person", id: acme.userId("tara"), name: "Tara Teamadmin" },
        targetCount: 4,
        createdAt: "2026-07-03T09:00:00.000Z",
        updatedAt: "2026-07-04T09:00:00.000Z",
        url: expect.stringMatching(new RegExp(`/v1/issues/${acme.ids.issues.oncallGap}$`))
      })
      expect(byId(admin, "secretsStale")?.assignee).toEqual({ type: "role", id: acme.roleId("eng"), name: "Engineer" })
      expect(byId(admin, "noTarget")).toMatchObject({ assignee: null, targetCount: 0 })
      // Admins count every target, archived ones too; anyone else lists only issues whose every target they read.
      expect(byId(admin, "archivedDuplicate")?.targetCount).toBe(2)
      const victor = (yield* list(acme, "victor")).data
      expect(byId(victor, "oncallGap")?.targetCount).toBe(4)
      const liam = (yield* list(acme, "liam")).data
      expect(byId(liam, "oncallGap")).toBeUndefined()
      expect(byId(liam, "categoryMisfile")).toBeUndefined()
    }))

  it.effect("status, type and severity each keep only their value, and combine", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const ids = (params: IssueListParams) => list(acme, "adam", params).pipe(Effect.map((page) => page.data.map((issue) => issue.id)))
      expect(yield* ids({ status: "OPEN" })).toEqual([...tiePair(acme), ...idsOf(acme, ["noTarget", "secretsStale", "deployConflict"])])
      expect(yield* ids({ status: "RESOLVED" })).toEqual(idsOf(acme, ["archivedDuplicate"]))
      expect(yield* ids({ type: "OTHER" })).toEqual(tiePair(acme))
      expect(yield* ids({ severity: "LOW" })).toEqual([acme.ids.issues.draftOnly!, ...idsOf(acme, ["categoryMisfile", "archivedDuplicate"])])
      expect(yield* ids({ status: "OPEN", severity: "LOW", type: "OTHER" })).toEqual(idsOf(acme, ["draftOnly"]))
      expect(yield* ids({ status: "DISMISSED", type: "CONFLICT" })).toEqual([])
    }))

  it.effect("pages follow each other without gap or repeat, across the tie, and the last has no cursor", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const all = (yield* list(acme, "adam")).data.map((issue) => issue.id)
      for (const limit of [1, 2, 3]) {
        const pages = yield* walk(acme, "adam", { limit })
        expect(pages.flat().map((issue) => issue.id), `limit ${limit}`).toEqual(all)
        expect(pages.every((page) => page.length <= limit)).toBe(true)
      }
      const open = yield* walk(acme, "adam", { status: "OPEN", limit: 2 })
      expect(open.map((page) => page.length)).toEqual([2, 2, 1])
    }))

  it.effect("a cursor is bound to its filters and to the caller: used elsewhere it is a 400", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const first = yield* list(acme, "adam", { limit: 2 })
      expect(first.nextCursor).not.toBeNull()
      const cursor = first.nextCursor!
      expect((yield* Effect.flip(list(acme, "adam", { limit: 2, cursor, status: "OPEN" })))._tag).toBe("BadRequest")
      expect((yield* Effect.flip(list(acme, "olivia", { limit: 2, cursor })))._tag).toBe("BadRequest")
      expect((yield* Effect.flip(list(acme, "adam", { cursor: "not-a-cursor" })))._tag).toBe("BadRequest")
    }))

  it.effect("assignedToMe: directly or through a role held now, among the issues the person may read", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const mine = (key: string) =>
        list(acme, key, { assignedToMe: true }).pipe(Effect.map((page) => page.data.map((issue) => issue.id)))
      // Victor: Driver (tieOther) now. Engineer (secretsStale) and categoryMisfile (directly) have a target he cannot read,
      // so being assigned them does not show them; Clerk (archivedDuplicate) ended.
      expect(yield* mine("victor")).toEqual(idsOf(acme, ["tieOther"]))
      expect(yield* mine("tara")).toEqual(idsOf(acme, ["oncallGap"]))
      // Ed held Engineer only in 2024; Dora still holds it (deactivated people cannot call, but the rule is the holding).
      expect(yield* mine("ed")).toEqual([])
      // amy holds Engineer, but secretsStale names the admins-only vault policy.
      expect(yield* mine("amy")).toEqual([])
      // An admin's assignedToMe is about them too, not every issue.
      expect(yield* mine("adam")).toEqual([])
      // false is no filter.
      expect((yield* list(acme, "victor", { assignedToMe: false })).data).toHaveLength(4)
    }))

  it.effect("another organization lists only its own issues", () =>
    Effect.gen(function*() {
      const { other } = yield* setup
      const page: Page<IssueSummary> = yield* list(other, "otto")
      expect(page.data.map((issue) => issue.id)).toEqual([other.ids.issues.otherIssue])
    }))
})
