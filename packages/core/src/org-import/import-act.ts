import type { Caller } from "@tks/domain/caller"
import type { ActRecord } from "../journal/journal.js"
import type { ImportPlan } from "./plan.js"

/**
 * An organization created from a fixture, as one act: its name and plan,
 * and how many rows each table received (the tokens among them, never
 * their values).
 */
export const organizationImported = (caller: Caller, planned: ImportPlan, tokens: number): ActRecord => {
  const organization = planned.tables.find((table) => table.table === "organizations")?.rows[0]
  const counts: Record<string, number> = {}
  for (const { rows, table } of planned.tables) if (rows.length > 0 && table !== "organizations") counts[table] = rows.length
  if (tokens > 0) counts.access_tokens = tokens
  return {
    caller,
    orgId: planned.organizationId,
    action: "organization.imported",
    targets: [{ type: "organization", id: planned.organizationId }],
    changes: {
      name: { new: organization?.name ?? null },
      plan: { new: organization?.plan ?? null },
      counts: { new: counts }
    }
  }
}
