import { Effect } from "effect"
import type { EntityDuties as EntityDutiesView, EntityDutiesParams, EntityDutyRow, EntityType } from "@tks/domain/duty"
import { NotFound } from "@tks/domain/errors"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { type EntityDutyEntryRow, EntityDutiesRepo } from "./entity-duties-repo.js"
import { traced } from "../common/traced.js"

/** The same message the entity's own read gives when it is out of reach (as if absent). */
const absent: Record<EntityType, string> = {
  TOPIC: "No such topic",
  ITEM: "No such item",
  SPACE: "No such space",
  CATEGORY: "No such category"
}

// The keys in the wire schema's order: the answer is sent as built (apps/server wire answers).
const view = (row: EntityDutyEntryRow): EntityDutyRow => ({
  holder: { type: row.holder_type, id: row.holder_id, name: row.holder_name },
  role: row.raci,
  inheritedFrom: row.depth === 0 ? null : { entityType: row.via_type, entityId: row.via_id },
  tierQualifier: row.tier_qualifier,
  ...(row.tier_qualifier === "ALL" || row.tier_id === null ? {} : { advancementTierId: row.tier_id }),
  advancementTierLabel: row.tier_qualifier === "ALL" ? null : row.tier_label
})

/**
 * The duties on one entity, inherited ones included:
 * every duty held on the entity or on an ancestor (an item's parent items,
 * its topic, the topic's space, the space's category), whoever holds it
 * (a company role, a team, a person, a third party). Org-chart data, read
 * under company-role.read; the entity itself must be in the live graph and
 * readable by the caller, else 404 as if absent.
 */
export class EntityDuties extends Effect.Service<EntityDuties>()("@tks/core/EntityDuties", {
  effect: Effect.gen(function*() {
    const repo = yield* EntityDutiesRepo

    /** GET /v1/duties?entityType&entityId: one unpaginated page, direct first, then by ancestor depth, RACI, holder name. */
    const forEntity = traced("EntityDuties.forEntity")(function*(access: Access, params: EntityDutiesParams) {
      const rows = yield* repo.forEntity({
        orgId: access.actor.organizationId,
        reader: readerOf(access.actor),
        entityType: params.entityType,
        entityId: params.entityId
      })
      const first = rows[0]
      if (first === undefined) return yield* new NotFound({ message: absent[params.entityType] })
      const result: EntityDutiesView = {
        entityType: params.entityType,
        entityId: params.entityId,
        entityName: first.entity_name,
        data: rows.filter((row) => row.duty_id !== null).map(view),
        nextCursor: null
      }
      return result
    })

    return { forEntity } as const
  }),
  dependencies: [EntityDutiesRepo.Default]
}) {}
