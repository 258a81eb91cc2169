import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import type { SearchParams } from "@tks/domain/search"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { SearchCandidates } from "../src/search/repo.js"
import { Search } from "../src/search/service.js"
import { type Imported, importedOnce } from "./support/access.js"

/**
 * A word found in more records than search ranks (SearchCandidates) must
 * still give one answer: the same page on every call, however PostgreSQL
 * happens to store or scan the rows. Here only three matches of each kind
 * are ranked, and six topics and six chapters hold the word.
 */
const RANKED = 3

const times = (word: string, n: number) => Array.from({ length: n }, () => word).join(" ")

const crossings: OrgFixtureInput = {
  organization: { name: "Crossings" },
  people: [{ key: "cai", name: "Cai Admin", email: "cai@crossings.test", role: "admin" }],
  spaces: [{
    key: "roads",
    category: "customer-success",
    name: "Roads",
    // Each mentions the word a different number of times, so each ranks differently.
    topics: Array.from({ length: 6 }, (_, i) => ({
      key: `t${i}`,
      name: `Crossing ${i + 1}`,
      description: `The ${times("zebra", i + 1)} crossing near gate ${i + 1}`
    }))
  }],
  content: [{
    key: "guide",
    title: "Crossings guide",
    chapters: Array.from({ length: 6 }, (_, i) => ({ headline: `Gate ${i + 1}`, text: `Cross at the ${times("zebra", i + 1)} crossing.` }))
  }]
}

const TestLayer = Layer.mergeAll(
  FixtureImporter.Default,
  Search.Default.pipe(Layer.provide(Layer.succeed(SearchCandidates, RANKED)))
).pipe(Layer.provideMerge(TestDatabaseLive))
const setup = importedOnce({ crossings })

const search = (org: Imported, params: SearchParams) =>
  Search.pipe(Effect.flatMap((s) => s.search(org.access("cai", policies.search.query), params)))

/**
 * Writes the organization's rows of `table` again, in `order` of their ids:
 * the same data, stored (and so scanned) in another physical order.
 */
const storeInOrder = (table: "topics" | "chapters", org: Imported, order: "ASC" | "DESC") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`WITH moved AS (DELETE FROM ${sql(table)} WHERE org_id = ${org.organizationId} RETURNING *)
      INSERT INTO ${sql(table)} SELECT * FROM moved ORDER BY id ${sql.unsafe(order)}`
  })

/** The pages of one search, each after the rows of `table` were stored again in another order. */
const pagesAcrossOrders = (table: "topics" | "chapters", type: "topic" | "chapter") =>
  Effect.gen(function*() {
    const { crossings } = yield* setup
    const pages: Array<ReadonlyArray<string>> = []
    for (const order of ["ASC", "DESC", "ASC", "DESC"] as const) {
      yield* storeInOrder(table, crossings, order)
      const page = yield* search(crossings, { query: "zebra", types: [type] })
      pages.push(page.data.map((result) => `${result.id} ${result.score}`))
    }
    return pages
  })

layer(TestLayer)("search: a word in more records than are ranked", (it) => {
  it.effect("a common-word search gives the same page of topics every time, whatever the physical order of the rows", () =>
    Effect.gen(function*() {
      const pages = yield* pagesAcrossOrders("topics", "topic")
      expect(pages[0]).toHaveLength(RANKED)
      for (const page of pages) expect(page).toEqual(pages[0])
    }))

  it.effect("a common-word search gives the same page of chapters every time, whatever the physical order of the rows", () =>
    Effect.gen(function*() {
      const pages = yield* pagesAcrossOrders("chapters", "chapter")
      expect(pages[0]).toHaveLength(RANKED)
      for (const page of pages) expect(page).toEqual(pages[0])
    }))
})
