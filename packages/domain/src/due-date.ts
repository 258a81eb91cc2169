import { Schema } from "effect"

/**
 * Due dates of obligations (docs/domain.md, Due dates). Pure: core
 * applies these rules and mirrors none of them in SQL.
 *
 * - A due date is given as an instant (an ISO 8601 date and time with a UTC
 *   offset) or as a number of days counted from a basis: the assignment
 *   time, or the date the person took on the duty.
 * - An obligation's *computed* date comes from the acts that assigned it;
 *   the date the person sees is that one unless an admin set one by hand
 *   (`overridden`), which later assignments never move.
 * - Assigning the same thing again merges: the earlier date wins (no date at
 *   all counts as the latest), unless the date was overridden.
 * - When the basis of a day-counted, not overridden date changes (the person
 *   took on the duty again), the obligation is flagged `needsReview` and
 *   keeps its date until an admin confirms a new one.
 */

export const dueDaysMin = 1
export const dueDaysMax = 3650
const dayMs = 86_400_000

// Date, time (seconds and fraction optional), and a required offset: Z or +hh:mm / -hh:mm (or +hhmm).
const offsetDateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/

/**
 * An ISO 8601 date and time with a UTC offset as the instant it names, or
 * undefined when the text is not one (no offset, an impossible date such
 * as February 30, an offset beyond ±23:59).
 */
export const parseOffsetDateTime = (text: string): Date | undefined => {
  const match = offsetDateTime.exec(text)
  if (match === null) return undefined
  const [, y, mo, d, h, mi, s, , zone] = match
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s ?? "0")
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (day > daysInMonth) return undefined
  if (zone !== "Z" && zone !== "z") {
    const digits = zone!.replace(":", "")
    if (Number(digits.slice(1, 3)) > 23 || Number(digits.slice(3, 5)) > 59) return undefined
  }
  const parsed = new Date(text.replace(/z$/, "Z").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"))
  return Number.isNaN(parsed.getTime()) ? undefined : parsed
}

export const offsetDateTimeProblem =
  "must be an ISO 8601 date and time with a UTC offset, e.g. 2026-12-01T17:00:00Z or 2026-12-01T17:00:00+02:00"

/** A body field holding an instant: ISO 8601 with a UTC offset. Decodes to the string as sent. */
export const OffsetDateTime = Schema.String.pipe(
  Schema.filter((text) => parseOffsetDateTime(text) !== undefined || offsetDateTimeProblem, {
    jsonSchema: { format: "date-time" },
    description: "ISO 8601 date and time with a UTC offset (Z or ±hh:mm)",
    examples: ["2026-12-01T17:00:00Z", "2026-12-01T17:00:00+02:00"]
  })
)

/** A number of days: a whole number from 1 to 3650. */
export const DueDays = Schema.Number.pipe(
  Schema.filter((days) =>
    (Number.isInteger(days) && days >= dueDaysMin && days <= dueDaysMax) || `must be a whole number from ${dueDaysMin} to ${dueDaysMax}`, {
    jsonSchema: { type: "integer", minimum: dueDaysMin, maximum: dueDaysMax }
  })
)

/** `due` of an assignment: an instant, or days counted from the assignment. */
export const DueSpec = Schema.Union(
  Schema.Struct({ type: Schema.Literal("date"), date: OffsetDateTime }),
  Schema.Struct({ type: Schema.Literal("days"), days: DueDays })
).annotations({
  identifier: "Due",
  description: "{type: date, date: ISO 8601 with UTC offset} or {type: days, days: 1 to 3650, counted from the assignment}"
})
export type DueSpec = typeof DueSpec.Type

/** What a day-counted date counts from: the assignment, or the date the person took on the duty. */
export type DueBasis = "assignment" | "duty"

/** How a computed date was counted, when it was counted in days. */
export interface DayCount {
  readonly days: number
  readonly basis: DueBasis
  readonly basisAt: Date
}

/** A due date as an act asks for it: the date (null: no deadline) and how it was counted. */
export interface AskedDue {
  readonly date: Date | null
  readonly count: DayCount | null
}

export const noDeadline: AskedDue = { date: null, count: null }

/** `days` counted from `basisAt`: the same time of day, `days` later. */
export const countDays = (days: number, basisAt: Date): Date => new Date(basisAt.getTime() + days * dayMs)

/** Days counted from a basis, as an asked due date. */
export const dueInDays = (days: number, basis: DueBasis, basisAt: Date): AskedDue => ({
  date: countDays(days, basisAt),
  count: { days, basis, basisAt }
})

/** An assignment's `due` (omitted: no deadline), days counted from `assignedAt`. */
export const askedDue = (spec: DueSpec | undefined, assignedAt: Date): AskedDue => {
  if (spec === undefined) return noDeadline
  if (spec.type === "days") return dueInDays(spec.days, "assignment", assignedAt)
  const date = parseOffsetDateTime(spec.date)
  if (date === undefined) throw new Error(`due.date was decoded but does not parse: ${spec.date}`)
  return { date, count: null }
}

/** An obligation's due-date state. Invariant: `dueDate` equals `computed` unless overridden or under review. */
export interface DueState {
  /** The date the person sees; null: no deadline. */
  readonly dueDate: Date | null
  /** Set by hand over the computed one; later assignments never move it. */
  readonly overridden: boolean
  /** The date the assigning acts computed (what removing an override restores). */
  readonly computed: Date | null
  /** How `computed` was counted, when in days. */
  readonly count: DayCount | null
  /** The basis of the day count changed; the date is kept until an admin confirms one. */
  readonly needsReview: boolean
}

/** A new obligation's due-date state. */
export const initialDue = (asked: AskedDue): DueState => ({
  dueDate: asked.date,
  overridden: false,
  computed: asked.date,
  count: asked.count,
  needsReview: false
})

const sameInstant = (a: Date | null, b: Date | null) => (a === null ? b === null : b !== null && a.getTime() === b.getTime())

/** `a` is strictly earlier than `b`, where null is no deadline (later than any date). */
export const earlier = (a: Date | null, b: Date | null): boolean => a !== null && (b === null || a.getTime() < b.getTime())

/** What the person sees once `computed` changed: the override or the date under review stay. */
const shown = (state: DueState, computed: Date | null): Date | null =>
  state.overridden || state.needsReview ? state.dueDate : computed

/**
 * The basis of the day count moved to `basisAt` (the person took on
 * the duty at another date). A not-overridden date is kept and flagged for
 * review; an overridden one hides the computed date, which simply follows
 * the new basis. A date not counted in days, or the same basis, is unchanged.
 */
export const rebase = (state: DueState, basisAt: Date): DueState => {
  const count = state.count
  if (count === null || sameInstant(count.basisAt, basisAt)) return state
  const moved: DayCount = { ...count, basisAt }
  if (state.overridden) return { ...state, count: moved, computed: countDays(count.days, basisAt) }
  return { ...state, count: moved, needsReview: true }
}

/**
 * Merges another assignment of the same thing into an active obligation:
 * the earlier computed date wins (null is no deadline),
 * with the way it was counted; an override is never moved and a date under
 * review is kept. When both count days from the duty and the basis moved,
 * that is a change of basis (`rebase`), not a competing date.
 */
export const mergeDue = (state: DueState, asked: AskedDue): DueState => {
  if (state.count?.basis === "duty" && asked.count?.basis === "duty" && !sameInstant(state.count.basisAt, asked.count.basisAt)) {
    return rebase(state, asked.count.basisAt)
  }
  if (!earlier(asked.date, state.computed)) return state
  return { ...state, computed: asked.date, count: asked.count, dueDate: shown(state, asked.date) }
}

/**
 * POST /v1/obligations/{id}/due-date: a date sets it by hand (overridden);
 * null removes the override and the person sees the computed date again.
 */
export const overrideDue = (state: DueState, date: Date | null): DueState =>
  date === null
    ? { ...state, overridden: false, dueDate: state.needsReview ? state.dueDate : state.computed }
    : { ...state, overridden: true, dueDate: date }

/**
 * POST /v1/obligations/{id}/confirm-review: the admin's date (null: no
 * deadline) becomes the computed date, shown unless an override hides it;
 * the flag is cleared. The day count keeps its (new) basis, so the same
 * basis arriving again is not a change.
 */
export const confirmDue = (state: DueState, resolved: Date | null): DueState => ({
  ...state,
  needsReview: false,
  computed: resolved,
  dueDate: state.overridden ? state.dueDate : resolved
})
