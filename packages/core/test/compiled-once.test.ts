import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { compiledOnce } from "../src/common/compiled-once.js"

layer(TestDatabaseLive)("a statement compiled once", (it) => {
  it.effect("sends the text the composed statement would, with each call's value in its parameter", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const inner = (value: string) => sql`SELECT ${value}::text AS v, ${sql("n")} FROM (SELECT 41 + ${1}::int AS n) t`
      const build = (value: string) => sql<{ v: string; n: number; w: string }>`WITH x AS (${inner(value)}) SELECT x.*, ${"fixed"}::text AS w FROM x`
      const statement = compiledOnce(sql, build)
      for (const value of ["first", "second", "it's \"quoted\""]) {
        expect(yield* statement(value)).toEqual([{ v: value, n: 42, w: "fixed" }])
        expect(yield* statement(value)).toEqual(yield* build(value))
      }
    }))

  it.effect("refuses a statement that uses its value twice or not at all, before sending anything", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const twice = compiledOnce(sql, (value) => sql`SELECT ${value}::text AS a, ${value}::text AS b`)
      const never = compiledOnce(sql, (_value) => sql`SELECT 1 AS a`)
      expect(() => twice("x")).toThrow(/exactly one parameter/)
      expect(() => never("x")).toThrow(/exactly one parameter/)
    }))
})
