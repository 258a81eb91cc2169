/** A node of `EXPLAIN (FORMAT JSON)` output (the fields read here). */
export interface PlanNode {
  readonly "Node Type": string
  readonly "Parent Relationship"?: string
  readonly "Relation Name"?: string
  readonly Alias?: string
  readonly "Index Name"?: string
  readonly "Actual Rows"?: number
  readonly "Actual Loops"?: number
  readonly "Rows Removed by Filter"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}

export interface PlanCheck {
  readonly ok: boolean
  readonly problems: ReadonlyArray<string>
  /** How the listed users (alias u) are read: "Index Scan using users_by_name", ... */
  readonly usersAccess: ReadonlyArray<string>
  /** Rows those scans returned plus rows they filtered out (all loops). */
  readonly usersRowsRead: number
  /** Sort nodes in the main query (not in per-row subplans). */
  readonly outerSorts: number
}

const NAME_INDEXES = ["users_by_status_name", "users_by_name"]

const all = (node: PlanNode, inSubplan: boolean, visit: (node: PlanNode, inSubplan: boolean) => void) => {
  visit(node, inSubplan)
  for (const child of node.Plans ?? []) {
    const sub = inSubplan || child["Parent Relationship"] === "SubPlan" || child["Parent Relationship"] === "InitPlan"
    all(child, sub, visit)
  }
}

/**
 * The members listing should read `users u` in (sort_name, id) order through
 * users_by_status_name or users_by_name, starting at the keyset: no Seq Scan of
 * users anywhere and no Sort in the main query.
 */
export const checkPagePlan = (root: PlanNode): PlanCheck => {
  const problems: Array<string> = []
  const usersAccess: Array<string> = []
  let usersRowsRead = 0
  let outerSorts = 0
  all(root, false, (node, inSubplan) => {
    const type = node["Node Type"]
    if (!inSubplan && (type === "Sort" || type === "Incremental Sort")) outerSorts++
    if (node["Relation Name"] !== "users") return
    if (type === "Seq Scan") problems.push(`Seq Scan on users ${node.Alias ?? ""}`.trim())
    if (node.Alias === "u") {
      usersAccess.push(node["Index Name"] === undefined ? type : `${type} using ${node["Index Name"]}`)
      const loops = node["Actual Loops"] ?? 1
      usersRowsRead += ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * loops
      if (!inSubplan && !NAME_INDEXES.includes(node["Index Name"] ?? "")) {
        problems.push(`users u read by ${type}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}, not a name index`)
      }
    }
  })
  if (outerSorts > 0) problems.push(`${outerSorts} Sort node(s) in the main query`)
  return { ok: problems.length === 0, problems, usersAccess, usersRowsRead, outerSorts }
}

/** How each table the query touches is read: "Bitmap Index Scan using chapters_search", "Seq Scan on topics t", ... */
export const scansOf = (root: PlanNode): ReadonlyArray<string> => {
  const scans = new Set<string>()
  all(root, false, (node) => {
    const type = node["Node Type"]
    if (!/Scan/.test(type)) return
    const on = node["Relation Name"] === undefined ? "" : ` on ${node["Relation Name"]}${node.Alias !== undefined && node.Alias !== node["Relation Name"] ? ` ${node.Alias}` : ""}`
    scans.add(`${type}${on}${node["Index Name"] === undefined ? "" : ` using ${node["Index Name"]}`}`)
  })
  return [...scans]
}
