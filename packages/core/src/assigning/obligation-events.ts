import { Caller } from "@tks/domain/caller"
import type { Access } from "@tks/domain/policy"
import { isoOrNull } from "../common/time.js"
import type { ActRecord, EventDraft } from "../journal/journal.js"
import type { ObligationRow } from "./obligation-rows.js"

/** An obligation as its events name it. */
export const obligationRef = (row: Pick<ObligationRow, "id" | "item_type" | "item_id" | "required" | "due_date">) => ({
  id: row.id,
  itemType: row.item_type,
  itemId: row.item_id,
  required: row.required,
  dueDate: isoOrNull(row.due_date)
})

/** `obligation.created` for each new obligation of one act. */
export const obligationsCreated = (
  rows: ReadonlyArray<{ readonly id: string; readonly userId: string }>,
  shared: Pick<ObligationRow, "item_type" | "item_id" | "required" | "due_date">
): Array<EventDraft> =>
  rows.map((row) => ({
    type: "obligation.created",
    data: { obligation: obligationRef({ ...shared, id: row.id }) },
    personId: row.userId
  }))

/** What an assigning act set on one obligation: a new one's values, or a merged one's fields before and after. */
export const obligationChanges = (
  before: Pick<ObligationRow, "required" | "due_date"> | undefined,
  after: Pick<ObligationRow, "required" | "due_date">,
  reason: string | null
): ActRecord["changes"] =>
  before === undefined
    ? { required: { new: after.required }, dueDate: { new: isoOrNull(after.due_date) }, ...(reason === null ? {} : { reason: { new: reason } }) }
    : {
      required: { old: before.required, new: after.required },
      dueDate: { old: isoOrNull(before.due_date), new: isoOrNull(after.due_date) }
    }

/** The audit row and event of an act on one obligation. */
export const obligationAct = (access: Access, row: ObligationRow, event: EventDraft, changes: ActRecord["changes"]): ActRecord => ({
  caller: Caller.person(access),
  orgId: access.actor.organizationId,
  action: event.type,
  targets: [{ type: "obligation", id: row.id }, { type: "person", id: row.user_id }],
  changes,
  events: [event]
})
