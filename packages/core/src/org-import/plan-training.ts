import { newId } from "../common/ids.js"
import { daysAfter, type PlanContext, type Row } from "./plan-types.js"
import { earliest, FirstOf, latest, notBefore } from "./plan-training-rules.js"
import type { FixtureObligation } from "./schema-training.js"

/** member_reviews, lesson_retraining_policies and mastery. */
export const planTrainingRecords = (ctx: PlanContext) => {
  const { fixture, keys, organizationId: org_id, now, at } = ctx
  const personal = new Set(fixture.lessons.flatMap((lesson) => (lesson.personalFor === undefined ? [] : [lesson.key])))
  const person = (key: string | undefined, path: string): string | null =>
    key === undefined ? null : keys.ref("person", key, path) ?? null

  const reviews = fixture.reviews.map((review, i): Row => {
    const path = at("reviews", i)
    return {
      org_id,
      id: newId("memberReview"),
      user_id: keys.ref("person", review.about, `${path}.about`) ?? "",
      author_id: person(review.author, `${path}.author`),
      reviewed_at: review.reviewedAt,
      note: review.note,
      created_at: review.reviewedAt
    }
  })

  const policyOf = new FirstOf()
  const policies = fixture.retrainingPolicies.map((policy, i): Row => {
    const path = at("retrainingPolicies", i)
    const first = policyOf.claim(policy.lesson, path)
    if (first !== undefined) keys.problem(`${path}.lesson`, `lesson "${policy.lesson}" already has a retraining policy (${first})`)
    if (personal.has(policy.lesson)) keys.problem(`${path}.lesson`, `lesson "${policy.lesson}" was generated for a single person and cannot have one`)
    return {
      org_id,
      lesson_id: keys.ref("lesson", policy.lesson, `${path}.lesson`) ?? "",
      interval_days: policy.intervalDays,
      completion_mode: policy.completionMode,
      updated_by: person(policy.updatedBy, `${path}.updatedBy`),
      updated_at: policy.updatedAt ?? now
    }
  })

  const masteryOf = new FirstOf()
  const mastery = fixture.mastery.map((row, i): Row => {
    const path = at("mastery", i)
    const first = masteryOf.claim(`${row.person} ${row.topic}`, path)
    if (first !== undefined) keys.problem(`${path}.topic`, `"${row.person}" already has a mastery of topic "${row.topic}" (${first})`)
    return {
      org_id,
      user_id: keys.ref("person", row.person, `${path}.person`) ?? "",
      topic_id: keys.ref("topic", row.topic, `${path}.topic`) ?? "",
      level: row.level,
      proven_at: row.provenAt ?? now
    }
  })

  return { reviews, policies, mastery }
}

const things = ["lesson", "topic", "item"] as const

/**
 * obligations. Mirrors the partial unique index `obligations_active` as a
 * problem (one active obligation per person and thing owed) and the state
 * rules of obligations (docs/domain.md, Obligations): an end reason belongs to a
 * cancelled or waived obligation, a hand-set date needs a date, and only an
 * active obligation with a date counted in days can need a review.
 */
export const planObligations = (ctx: PlanContext) => {
  const { fixture, keys, at } = ctx
  const personal = new Set(fixture.lessons.flatMap((lesson) => (lesson.personalFor === undefined ? [] : [lesson.key])))
  const active = new FirstOf()
  const obligations = fixture.obligations.map((obligation, i) => {
    const path = at("obligations", i)
    const named = things.filter((thing) => obligation[thing] !== undefined)
    const itemType = named[0] ?? "lesson"
    const itemKey = named.length === 1 ? obligation[itemType] ?? "" : ""
    if (named.length !== 1) keys.problem(path, `names exactly one of lesson, topic or item (this one names ${named.length === 0 ? "none" : named.join(" and ")})`)
    const kind = obligation.kind ?? (itemType === "lesson" ? "assignment" : "knowledge")
    if (named.length === 1) {
      if (kind === "knowledge" && itemType === "lesson") keys.problem(`${path}.kind`, "a knowledge obligation is owed on a topic or an item")
      if (kind !== "knowledge" && itemType !== "lesson") keys.problem(`${path}.kind`, `an obligation of kind "${kind}" is owed on a lesson`)
      if (kind !== "knowledge" && personal.has(itemKey)) {
        keys.problem(`${path}.lesson`, `lesson "${itemKey}" was generated for a single person and cannot be assigned`)
      }
    }
    if (obligation.status === "active" && named.length === 1) {
      const first = active.claim(`${obligation.person} ${itemType} ${itemKey}`, path)
      if (first !== undefined) keys.problem(`${path}.status`, `"${obligation.person}" already owes ${itemType} "${itemKey}" (active at ${first})`)
    }
    return planObligation(ctx, obligation, path, itemType, kind, itemKey)
  })
  return { obligations }
}

const planObligation = (
  ctx: PlanContext,
  obligation: FixtureObligation,
  path: string,
  itemType: (typeof things)[number],
  kind: "assignment" | "knowledge" | "retraining",
  itemKey: string
): Row => {
  const { keys, organizationId: org_id, now } = ctx
  const ended = obligation.status !== "active"
  const excused = obligation.status === "cancelled" || obligation.status === "waived"
  const createdAt = obligation.createdAt ?? earliest([ended ? obligation.endedAt : undefined, now])
  const endedAt = ended ? obligation.endedAt ?? latest([createdAt, now]) : null
  if (!ended && obligation.endedAt !== undefined) keys.problem(`${path}.endedAt`, "an active obligation has not ended")
  notBefore(keys, `${path}.endedAt`, endedAt, "createdAt", createdAt)
  if (!excused && obligation.endReason !== undefined) keys.problem(`${path}.endReason`, "only a cancelled or waived obligation has an end reason")
  if (!excused && obligation.endedBy !== undefined) keys.problem(`${path}.endedBy`, "only a cancelled or waived obligation has an endedBy")

  const days = obligation.dueDays
  if (days === undefined && obligation.dueBasis !== undefined) keys.problem(`${path}.dueBasis`, "given without dueDays")
  if (days === undefined && obligation.dueBasisAt !== undefined) keys.problem(`${path}.dueBasisAt`, "given without dueDays")
  if (days !== undefined && obligation.dueDate === null) keys.problem(`${path}.dueDate`, "null, yet dueDays counts a due date")
  const basisAt = obligation.dueBasisAt ?? createdAt
  const dueDate = obligation.dueDate !== undefined ? obligation.dueDate : days === undefined ? null : daysAfter(basisAt, days)
  if (obligation.dueDateOverridden && (obligation.dueDate === undefined || obligation.dueDate === null)) keys.problem(`${path}.dueDateOverridden`, "a date set by hand needs a dueDate")
  if (obligation.needsReview) {
    if (obligation.status !== "active") keys.problem(`${path}.needsReview`, "only an active obligation can need a review")
    else if (days === undefined) keys.problem(`${path}.needsReview`, "only a due date counted in days (dueDays) can need a review")
    else if (obligation.dueDateOverridden) keys.problem(`${path}.needsReview`, "a date set by hand never needs a review")
  }
  if (kind !== "retraining" && obligation.retrainingResetsClock !== undefined) {
    keys.problem(`${path}.retrainingResetsClock`, "only a retraining obligation has one")
  }

  const person = (key: string | undefined, at: string): string | null => (key === undefined ? null : keys.ref("person", key, at) ?? null)
  return {
    org_id,
    id: obligation.key === undefined ? newId("obligation") : keys.ref("obligation", obligation.key, `${path}.key`) ?? "",
    user_id: keys.ref("person", obligation.person, `${path}.person`) ?? "",
    item_type: itemType,
    item_id: itemKey === "" ? "" : keys.ref(itemType, itemKey, `${path}.${itemType}`) ?? "",
    kind,
    status: obligation.status,
    required: obligation.required,
    due_date: dueDate,
    due_date_overridden: obligation.dueDateOverridden,
    needs_review: obligation.needsReview,
    due_days: days ?? null,
    due_basis: days === undefined ? null : obligation.dueBasis ?? "assignment",
    due_basis_at: days === undefined ? null : basisAt,
    retraining_resets_clock: kind === "retraining" ? obligation.retrainingResetsClock ?? false : null,
    reason: obligation.reason,
    end_reason: excused ? obligation.endReason ?? null : null,
    assigned_by: person(obligation.assignedBy, `${path}.assignedBy`),
    ended_by: excused ? person(obligation.endedBy, `${path}.endedBy`) : null,
    created_at: createdAt,
    updated_at: endedAt ?? createdAt,
    completed_at: obligation.status === "completed" ? endedAt : null,
    ended_at: excused ? endedAt : null
  }
}
