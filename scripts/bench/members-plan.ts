import { Effect } from "effect"
import { type ExplainJson, type SqlClient } from "./database.js"
import { checkPagePlan } from "./plan.js"
import { PAGE_SIZE } from "./walk.js"

/** Pages of the members walk; page 100's SQL is explained. */
export const MEMBER_PAGES = 100

/**
 * EXPLAIN (ANALYZE) of the statements the server ran for members page 100,
 * with the parameters it bound: the org id, the keyset after page 99
 * (sort_name, id) and limit + 1 for the page; the org id for the total.
 */
export const explainPageHundred = (
  sql: SqlClient,
  organizationId: string,
  statements: ReadonlyArray<string>,
  afterId: string | undefined,
  printPlans: boolean
) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    // Later pages carry the walk's total in their cursor: the count runs on page 1 only.
    lines.push(`\nmembers page ${MEMBER_PAGES}: ${statements.length} SQL statements (${statements.length > 2 ? "token check, total, page" : "token check, page"})`)
    const pageQuery = statements.find((text) => /FROM users u/.test(text) && /ORDER BY u\.sort_name, u\.id/.test(text))
    const countQuery = statements.find((text) => /count\(\*\)/.test(text) && /FROM users u/.test(text))
    if (pageQuery === undefined || afterId === undefined) {
      lines.push("WARNING: the members page query was not captured; no plan checked")
      return lines
    }
    // Its parameters in order: org id, the keyset after page 99 (sort_name, id), limit + 1.
    if (new Set(pageQuery.match(/\$\d+/g)).size !== 4 || !/\("?u"?\.sort_name, "?u"?\.id\) > \(\$2, \$3\)/.test(pageQuery)) {
      lines.push(`WARNING: the members page query changed shape; no plan checked:\n${pageQuery}`)
      return lines
    }
    const after = (yield* sql.unsafe<{ sort_name: string }>("SELECT sort_name FROM users WHERE org_id = $1 AND id = $2", [organizationId, afterId]))[0]
    const params = [organizationId, after?.sort_name, afterId, PAGE_SIZE + 1]
    const explained = (yield* sql.unsafe<{ "QUERY PLAN": ExplainJson }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${pageQuery}`, params))[0]!["QUERY PLAN"]
    const check = checkPagePlan(explained[0]!.Plan)
    lines.push(
      `  page query: users u read by ${check.usersAccess.join(", ") || "?"} (${check.usersRowsRead} rows), ` +
        `${check.outerSorts === 0 ? "no Sort" : `${check.outerSorts} Sort node(s)`} outside the per-row subplans, ` +
        `${explained[0]!["Execution Time"].toFixed(2)} ms in the database`
    )
    if (check.ok) lines.push("  plan check: ok (keyset range scan of a name index; no Seq Scan of users; no Sort)")
    else lines.push(`WARNING: members page query plan: ${check.problems.join("; ")}`)
    if (countQuery !== undefined) {
      const counted = (yield* sql.unsafe<{ "QUERY PLAN": ExplainJson }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${countQuery}`, [organizationId]))[0]!["QUERY PLAN"]
      const access = checkPagePlan(counted[0]!.Plan)
      lines.push(
        `  total (page 1 only): users u read by ${access.usersAccess.join(", ") || "?"} (${access.usersRowsRead} rows), ` +
          `${counted[0]!["Execution Time"].toFixed(2)} ms in the database`
      )
    }
    if (printPlans) {
      const text = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${pageQuery}`, params)
      lines.push(`\n-- members page ${MEMBER_PAGES}; parameters ${JSON.stringify(params)}\n${pageQuery.trim()}\n`)
      lines.push(text.map((row) => row["QUERY PLAN"]).join("\n"))
      if (countQuery !== undefined) {
        const counted = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${countQuery}`, [organizationId])
        lines.push(`\n-- members total; parameters ${JSON.stringify([organizationId])}\n${countQuery.trim()}\n`)
        lines.push(counted.map((row) => row["QUERY PLAN"]).join("\n"))
      }
    }
    return lines
  })
