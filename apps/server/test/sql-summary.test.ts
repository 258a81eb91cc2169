import { describe, expect, it } from "@effect/vitest"
import { summarizeSql } from "../src/observability/sql-summary.js"

const summaryOf = (text: string) => summarizeSql(text)?.summary

describe("SQL span names (the statement's summary)", () => {
  it("a statement is named by its verb and the table it reads or writes", () => {
    expect(summarizeSql("\n  SELECT id, name FROM members WHERE org_id = $1")).toEqual({
      operation: "SELECT",
      collection: "members",
      summary: "SELECT members"
    })
    expect(summaryOf("INSERT INTO jobs (id, org_id) VALUES ($1, $2) ON CONFLICT (kind) DO NOTHING")).toBe("INSERT jobs")
    expect(summaryOf("UPDATE jobs SET status = 'RUNNING' WHERE id = (SELECT id FROM leases FOR UPDATE SKIP LOCKED)")).toBe("UPDATE jobs")
    expect(summaryOf("DELETE FROM rate_limit_counters WHERE expires_at < now()")).toBe("DELETE rate_limit_counters")
    expect(summaryOf("INSERT INTO t (a) SELECT x FROM y ON CONFLICT (a) DO UPDATE SET a = 1")).toBe("INSERT t")
    expect(summaryOf("-- why\n/* note */ select extract(epoch from now()) from public.jobs")).toBe("SELECT public.jobs")
  })

  it("a statement with common table expressions is WITH, named by what it writes, else by its final SELECT's table", () => {
    expect(summarizeSql("WITH gone AS (DELETE FROM rate_limit_counters WHERE expires_at < now() RETURNING 1) SELECT count(*) FROM gone"))
      .toEqual({ operation: "WITH", collection: "rate_limit_counters", summary: "WITH DELETE rate_limit_counters" })
    expect(summaryOf("WITH RECURSIVE line (manager_id) AS (SELECT manager_id FROM users UNION SELECT 1 FROM line) SELECT * FROM knowledge JOIN line ON true"))
      .toBe("WITH SELECT knowledge")
    // The final SELECT reads a CTE: no table.
    expect(summarizeSql("WITH page AS (SELECT id FROM knowledge) SELECT * FROM page")).toEqual({ operation: "WITH", collection: undefined, summary: "WITH SELECT" })
  })

  it("strings, quoted names, parameters and functions are read as such", () => {
    expect(summaryOf("SELECT 'it''s FROM x' AS a FROM \"Weird\" w")).toBe("SELECT Weird")
    expect(summaryOf("SELECT $1::int AS n")).toBe("SELECT")
    expect(summaryOf("SELECT * FROM unnest($1::text[]) AS s(id)")).toBe("SELECT")
    expect(summaryOf("SELECT $body$ FROM x $body$ AS text FROM notes")).toBe("SELECT notes")
    expect(summaryOf("BEGIN")).toBe("BEGIN")
    expect(summarizeSql("  ")).toBeUndefined()
  })
})
