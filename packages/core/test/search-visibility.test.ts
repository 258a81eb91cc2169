import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import type { SearchParams, SearchResult } from "@tks/domain/search"
import { acme, other } from "@tks/core/testing/organizations"
import { FixtureImporter } from "../src/org-import/importer.js"
import { Search } from "../src/search/service.js"
import { type Imported, importedOnce } from "./support/access.js"

/**
 * Search finds only what the caller can read (same permission
 * rules as the HTTP reads), in acme: topics through their space's
 * visibility and the live graph, chapters through their content's
 * visibility (acme-knowledge.ts, acme-content.ts).
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, Search.Default).pipe(Layer.provideMerge(TestDatabaseLive))
const setup = importedOnce({ acme, other })

const search = (org: Imported, key: string, params: SearchParams) =>
  Search.pipe(Effect.flatMap((s) => s.search(org.access(key, policies.search.query), { limit: 50, ...params })))

/** "topic name" or "chapter headline (content title)", sorted: who sees what, whatever the order. */
const found = (page: { data: ReadonlyArray<SearchResult> }) =>
  page.data.map((r) => (r.type === "topic" ? `topic ${r.title}` : `chapter ${r.title} (${r.contentTitle})`)).sort()

layer(TestLayer)("search: only what the caller can read", (it) => {
  it.effect("organization admins find topics of every live space and chapters of every published content", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(found(yield* search(acme, "adam", { query: "rotation" }))).toEqual([
        "chapter Key rotation (Vault Key Policy)",
        "chapter Pager rotation (Ops Pager Runbook)",
        "topic Key rotation",
        "topic On-call"
      ])
    }))

  it.effect("a viewer never finds the admins-only Vault chapter or the Secrets topics; team content only of their teams", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const expected = ["chapter Pager rotation (Ops Pager Runbook)", "topic On-call"]
      expect(found(yield* search(acme, "victor", { query: "rotation" }))).toEqual(expected)
      expect(found(yield* search(acme, "tara", { query: "rotation" }))).toEqual(expected)
      expect(found(yield* search(acme, "victor", { query: "vault" }))).toEqual([])
      expect(found(yield* search(acme, "liam", { query: "rotation" }))).toEqual([])
      expect(found(yield* search(acme, "liam", { query: "fire" }))).toEqual([
        "chapter Fire drills (Safety Guide)",
        "topic Safety"
      ])
    }))

  it.effect("an external account finds only what is shared with their teams", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // Omar is on Partners: Team Runbooks is shared with Partners, the Ops runbook only with Ops.
      expect(found(yield* search(acme, "omar", { query: "pager" }))).toEqual(["topic On-call"])
      expect(found(yield* search(acme, "ella", { query: "pager" }))).toEqual([])
      // Content for everyone is not for external accounts.
      expect(found(yield* search(acme, "omar", { query: "fire" }))).toEqual([])
    }))

  it.effect("archived topics and topics of archived spaces are never found, not even by a near spelling", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      for (const query of ["archived topic", "legacy", "legacy topic", "archivd topic"]) {
        const titles = (yield* search(acme, "adam", { query })).data.map((r) => r.title)
        expect(titles, query).not.toContain("Archived topic")
        expect(titles, query).not.toContain("Legacy topic")
      }
    }))

  it.effect("drafts, content in review and rejected content are never found", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* search(acme, "adam", { query: "deployment" })
      const contentTitles = page.data.flatMap((r) => (r.type === "chapter" ? [r.contentTitle] : []))
      expect(contentTitles.length).toBeGreaterThan(0)
      for (const title of contentTitles) expect(title).toBe("Deployment Guide")
    }))

  it.effect("typos still find: rollot finds Deployments through its Rollout checklist, deploymnt finds the topic and the guide", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(found(yield* search(acme, "liam", { query: "rollot" }))).toEqual(["topic Deployments"])
      expect(found(yield* search(acme, "liam", { query: "deploymnt" }))).toEqual([
        "chapter Rolling out (Deployment Guide)",
        "topic Deployments"
      ])
    }))

  it.effect("another organization's admin finds nothing of acme's", () =>
    Effect.gen(function*() {
      const { other } = yield* setup
      for (const query of ["rotation", "fire", "deploymnt"]) expect((yield* search(other, "otto", { query })).data, query).toEqual([])
    }))
})
