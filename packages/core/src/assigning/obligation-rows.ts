import type { DayCount, DueBasis, DueState } from "@tks/domain/due-date"
import type { Obligation, ObligationItemType, ObligationKind, ObligationStatus } from "@tks/domain/obligation"
import { isoOrNull } from "../common/time.js"

/** An `obligations` row as the assigning acts read it. */
export interface ObligationRow {
  readonly id: string
  readonly user_id: string
  readonly item_type: ObligationItemType
  readonly item_id: string
  readonly kind: ObligationKind
  readonly status: ObligationStatus
  readonly required: boolean
  readonly due_date: Date | null
  readonly due_date_overridden: boolean
  readonly needs_review: boolean
  readonly due_days: number | null
  readonly due_basis: DueBasis | null
  readonly due_basis_at: Date | null
  readonly computed_due_date: Date | null
}

/** The columns of `ObligationRow`, for SELECT and RETURNING lists. */
export const obligationColumns = [
  "id",
  "user_id",
  "item_type",
  "item_id",
  "kind",
  "status",
  "required",
  "due_date",
  "due_date_overridden",
  "needs_review",
  "due_days",
  "due_basis",
  "due_basis_at",
  "computed_due_date"
] as const

/**
 * A row's due-date state. `computed_due_date` matters only while the date
 * is overridden or under review (migration 0008); otherwise the computed
 * date is the one shown, which is how rows written without it read.
 */
export const dueOf = (row: ObligationRow): DueState => {
  const count: DayCount | null = row.due_days !== null && row.due_basis !== null && row.due_basis_at !== null
    ? { days: row.due_days, basis: row.due_basis, basisAt: row.due_basis_at }
    : null
  return {
    dueDate: row.due_date,
    overridden: row.due_date_overridden,
    computed: row.due_date_overridden || row.needs_review ? row.computed_due_date : row.due_date,
    count,
    needsReview: row.needs_review
  }
}

/** The columns a due-date state is written to. */
export const dueColumns = (due: DueState) => ({
  due_date: due.dueDate,
  due_date_overridden: due.overridden,
  computed_due_date: due.computed,
  needs_review: due.needsReview,
  due_days: due.count?.days ?? null,
  due_basis: due.count?.basis ?? null,
  due_basis_at: due.count?.basisAt ?? null
})

/** An obligation as every assigning act on one answers it. */
export const obligationView = (row: ObligationRow): Obligation => ({
  id: row.id,
  userId: row.user_id,
  itemType: row.item_type,
  itemId: row.item_id,
  status: row.status,
  required: row.required,
  dueDate: isoOrNull(row.due_date),
  dueDateOverridden: row.due_date_overridden,
  needsReview: row.needs_review
})
