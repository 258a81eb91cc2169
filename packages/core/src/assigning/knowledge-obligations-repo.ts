import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { KnowledgeObligationRequest } from "@tks/domain/assigning"
import { Caller } from "@tks/domain/caller"
import { dueInDays, initialDue, noDeadline } from "@tks/domain/due-date"
import { mergeAssignment, type Obligation } from "@tks/domain/obligation"
import type { Access } from "@tks/domain/policy"
import { heldDuties } from "../duties/holdings.js"
import { dutyTargets } from "../duties/targets.js"
import { itemVisible, readerOf, topicVisible } from "../knowledge/access.js"
import { newId } from "../common/ids.js"
import { Journal } from "../journal/journal.js"
import { admitNamed } from "./admission.js"
import { obligationChanges, obligationsCreated } from "./obligation-events.js"
import { dueColumns, dueOf, type ObligationRow, obligationView } from "./obligation-rows.js"
import { ObligationsRepo } from "./obligations-repo.js"
import { AssigningPeopleRepo } from "./people-repo.js"
import { noDuty, unknownItem } from "./refusals.js"

/**
 * POST /v1/knowledge-obligations, one transaction: the person
 * (known, in reach, active) must hold a duty on the topic or item, directly
 * or through a team or a company role (duties/holdings.ts, the rule the
 * learning queue reads too), else 400; the topic or item must be in the
 * live graph and readable by the caller, else 400.
 * `dueDays` counts from the date the person took on the duty, so a
 * later request after they took it on again flags the date for review. An
 * active obligation on the same thing is merged into (required wins, the
 * earlier date wins unless set by hand); the reason is kept. The audit row
 * names the obligation, the person and the topic or item:
 * `obligation.created` with its event, or `obligation.merged`.
 */
export const makeCreateKnowledgeObligation = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const people = yield* AssigningPeopleRepo
  const obligations = yield* ObligationsRepo
  const journal = yield* Journal

  /**
   * When the person took on a duty reaching the target (the earliest of the
   * ways they hold one: the start of the role holding, or when the duty was
   * given to them or their team); null: they hold none; undefined: no such
   * topic or item (live and readable by the caller).
   */
  const dutyBasis = (access: Access, userId: string, target: { readonly type: "topic" | "item"; readonly id: string }) => {
    const orgId = access.actor.organizationId
    const reader = readerOf(access.actor)
    const visible = { topic: (alias: string) => topicVisible(sql, reader, alias), item: (alias: string) => itemVisible(sql, reader, alias) }
    return sql<{ targets: number; took_on_at: Date | null }>`
      WITH target AS MATERIALIZED (${dutyTargets(sql, orgId, target, visible)}),
      held AS MATERIALIZED (${heldDuties(sql, { orgId, userId })})
      SELECT (SELECT count(*)::int FROM target) AS targets,
        (SELECT min(CASE h.holder_type WHEN 'role' THEN rm.started_at ELSE d.created_at END)
         FROM held h
         JOIN target t ON t.entity_type = h.entity_type AND t.entity_id = h.entity_id
         JOIN duties d ON d.org_id = ${orgId} AND d.id = h.duty_id
         LEFT JOIN role_members rm ON h.holder_type = 'role' AND rm.org_id = d.org_id AND rm.role_id = d.holder_id
           AND rm.user_id = ${userId} AND rm.ended_at IS NULL) AS took_on_at`
      .pipe(Effect.map(([row]) => (row === undefined || row.targets === 0 ? undefined : row.took_on_at)))
  }

  return (access: Access, body: KnowledgeObligationRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const { actor } = access
      const orgId = actor.organizationId
      yield* admitNamed(access, yield* people.named(access, [body.userId], null), "active")
      const tookOnAt = yield* dutyBasis(access, body.userId, { type: body.itemType, id: body.itemId })
      if (tookOnAt === undefined) return yield* unknownItem(body.itemType)
      if (tookOnAt === null) return yield* noDuty(body.itemType)

      // One knowledge obligation act at a time per person and thing owed, so a merge never races an insert.
      yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`obligation:${orgId}:${body.userId}:${body.itemType}:${body.itemId}`}))`
      const asked = { required: true, due: body.dueDays === undefined ? noDeadline : dueInDays(body.dueDays, "duty", tookOnAt) }
      const reason = body.reason ?? null
      const recorded = (row: ObligationRow, before: ObligationRow | undefined) =>
        journal.record({
          caller: Caller.person(access),
          orgId,
          action: before === undefined ? "obligation.created" : "obligation.merged",
          targets: [{ type: "obligation", id: row.id }, { type: "person", id: row.user_id }, { type: row.item_type, id: row.item_id }],
          changes: obligationChanges(before, row, reason),
          events: before === undefined ? obligationsCreated([{ id: row.id, userId: row.user_id }], row) : []
        })
      const [active] = yield* obligations.lockActive(orgId, body.itemType, body.itemId, [body.userId])
      if (active !== undefined) {
        const merged = mergeAssignment({ required: active.required, due: dueOf(active) }, asked)
        yield* obligations.saveMerged(orgId, [{ id: active.id, required: merged.required, due: merged.due, reason, retrainingResetsClock: null }])
        const saved: ObligationRow = { ...active, required: merged.required, ...dueColumns(merged.due) }
        yield* recorded(saved, active)
        const view: Obligation = obligationView(saved)
        return view
      }
      const id = newId("obligation")
      yield* obligations.insert(orgId, {
        itemType: body.itemType,
        itemId: body.itemId,
        kind: "knowledge",
        required: true,
        due: initialDue(asked.due),
        reason,
        assignedBy: actor.userId,
        retrainingResetsClock: null
      }, [{ id, userId: body.userId }])
      const [written] = yield* obligations.byIds(orgId, [id])
      if (written === undefined) return yield* Effect.dieMessage("the knowledge obligation was not written")
      yield* recorded(written, undefined)
      const view: Obligation = obligationView(written)
      return view
    }))
})
