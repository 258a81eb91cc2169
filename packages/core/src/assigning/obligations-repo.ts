import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DueState } from "@tks/domain/due-date"
import type { ObligationId } from "@tks/domain/ids"
import type { ObligationItemType, ObligationKind } from "@tks/domain/obligation"
import { dueColumns, obligationColumns, type ObligationRow } from "./obligation-rows.js"

/** What new obligations of one act share: all but who owes and the id. */
interface ObligationTemplate {
  readonly itemType: ObligationItemType
  readonly itemId: string
  readonly kind: ObligationKind
  readonly required: boolean
  readonly due: DueState
  readonly reason: string | null
  readonly assignedBy: string
  readonly retrainingResetsClock: boolean | null
}

/** Who owes a new obligation, and its id. */
interface NewOwer {
  readonly id: string
  readonly userId: string
}

/** An active obligation after a merge: what changed. */
export interface MergedObligation {
  readonly id: string
  readonly required: boolean
  readonly due: DueState
  /** Left as it was when null. */
  readonly reason: string | null
  readonly retrainingResetsClock: boolean | null
}

const isoArray = (dates: ReadonlyArray<Date | null>) => dates.map((date) => (date === null ? null : date.toISOString()))

/**
 * Obligations as the assigning acts write them, every statement set-based
 * (one statement however many people) and inside the caller's transaction.
 * At most one active obligation per person and thing owed is the partial
 * unique index `obligations_active`'s to keep.
 */
export class ObligationsRepo extends Effect.Service<ObligationsRepo>()("@tks/core/ObligationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(obligationColumns.join(", "))

    /** One obligation of the organization, locked for the rest of the transaction. */
    const lockById = (orgId: string, id: ObligationId) =>
      sql<ObligationRow>`SELECT ${columns} FROM obligations WHERE org_id = ${orgId} AND id = ${id} FOR UPDATE`.pipe(
        Effect.map((rows) => rows[0])
      )

    /** The active obligations of `userIds` on one thing, locked (a concurrent waive or cancel waits for the merge). */
    const lockActive = (orgId: string, itemType: ObligationItemType, itemId: string, userIds: ReadonlyArray<string>) =>
      userIds.length === 0 ? Effect.succeed([] as ReadonlyArray<ObligationRow>) : sql<ObligationRow>`
        SELECT ${columns} FROM obligations
        WHERE org_id = ${orgId} AND item_type = ${itemType} AND item_id = ${itemId} AND status = 'active'
          AND user_id = ANY(${[...userIds]}::text[])
        ORDER BY user_id
        FOR UPDATE`

    /**
     * Inserts the same new active obligation for each of `owers` (one act
     * owes one thing the same way to everyone it reaches, so only the ids
     * and people travel as arrays). Someone an active obligation already
     * holds the place of is skipped. Returns the ids written.
     */
    const insert = (orgId: string, template: ObligationTemplate, owers: ReadonlyArray<NewOwer>) => {
      if (owers.length === 0) return Effect.succeed([] as ReadonlyArray<string>)
      const due = dueColumns(template.due)
      const at = (date: Date | null) => (date === null ? null : date.toISOString())
      return sql<{ id: string }>`
        INSERT INTO obligations (org_id, id, user_id, item_type, item_id, kind, required, due_date, due_date_overridden, needs_review,
          due_days, due_basis, due_basis_at, computed_due_date, reason, assigned_by, retraining_resets_clock)
        SELECT ${orgId}, n.id, n.user_id, ${template.itemType}, ${template.itemId}, ${template.kind}, ${template.required},
          ${at(due.due_date)}::timestamptz, ${due.due_date_overridden}, ${due.needs_review}, ${due.due_days}::int, ${due.due_basis}::text,
          ${at(due.due_basis_at)}::timestamptz, ${at(due.computed_due_date)}::timestamptz, ${template.reason}::text,
          ${template.assignedBy}, ${template.retrainingResetsClock}::boolean
        FROM unnest(${owers.map((o) => o.id)}::text[], ${owers.map((o) => o.userId)}::text[]) AS n(id, user_id)
        ORDER BY n.user_id
        ON CONFLICT (org_id, user_id, item_type, item_id) WHERE status = 'active' DO NOTHING
        RETURNING id`.pipe(Effect.map((written) => written.map((row) => row.id)))
    }

    /** Writes merged active obligations back (required, due date state, reason and retraining flag when given). */
    const saveMerged = (orgId: string, rows: ReadonlyArray<MergedObligation>) => {
      if (rows.length === 0) return Effect.void
      const due = rows.map((row) => dueColumns(row.due))
      return sql`
        UPDATE obligations o SET required = m.required, due_date = m.due_date, due_date_overridden = m.overridden,
          needs_review = m.needs_review, due_days = m.due_days, due_basis = m.due_basis, due_basis_at = m.due_basis_at,
          computed_due_date = m.computed, reason = COALESCE(m.reason, o.reason),
          retraining_resets_clock = COALESCE(m.resets_clock, o.retraining_resets_clock), updated_at = now()
        FROM unnest(
          ${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.required)}::boolean[],
          ${isoArray(due.map((d) => d.due_date))}::timestamptz[], ${due.map((d) => d.due_date_overridden)}::boolean[],
          ${due.map((d) => d.needs_review)}::boolean[], ${due.map((d) => d.due_days)}::int[], ${due.map((d) => d.due_basis)}::text[],
          ${isoArray(due.map((d) => d.due_basis_at))}::timestamptz[], ${isoArray(due.map((d) => d.computed_due_date))}::timestamptz[],
          ${rows.map((row) => row.reason)}::text[], ${rows.map((row) => row.retrainingResetsClock)}::boolean[]
        ) AS m(id, required, due_date, overridden, needs_review, due_days, due_basis, due_basis_at, computed, reason, resets_clock)
        WHERE o.org_id = ${orgId} AND o.id = m.id AND o.status = 'active'`.pipe(Effect.asVoid)
    }

    /** Ends active obligations (waive, cancel, unassign), keeping the reason and who did it. */
    const end = (orgId: string, ids: ReadonlyArray<string>, input: {
      readonly status: "waived" | "cancelled"
      readonly reason: string
      readonly endedBy: string
    }) =>
      ids.length === 0 ? Effect.succeed([] as ReadonlyArray<ObligationRow>) : sql<ObligationRow>`
        UPDATE obligations SET status = ${input.status}, end_reason = ${input.reason}, ended_by = ${input.endedBy},
          ended_at = now(), updated_at = now()
        WHERE org_id = ${orgId} AND id = ANY(${[...ids]}::text[]) AND status = 'active'
        RETURNING ${columns}`

    /** Reads obligations back after a write. */
    const byIds = (orgId: string, ids: ReadonlyArray<string>) =>
      ids.length === 0 ? Effect.succeed([] as ReadonlyArray<ObligationRow>) : sql<ObligationRow>`
        SELECT ${columns} FROM obligations WHERE org_id = ${orgId} AND id = ANY(${[...ids]}::text[])`

    return { lockById, lockActive, insert, saveMerged, end, byIds } as const
  })
}) {}
