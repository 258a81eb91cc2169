import { Schema } from "effect"

export const RaciRole = Schema.Literal("RESPONSIBLE", "ACCOUNTABLE", "CONSULTED", "INFORMED")
export type RaciRole = typeof RaciRole.Type

export const EntityType = Schema.Literal("TOPIC", "ITEM", "SPACE", "CATEGORY")
export type EntityType = typeof EntityType.Type

export const TierQualifier = Schema.Literal("ALL", "MIN_TIER", "MAX_TIER", "EXACT_TIER")
export type TierQualifier = typeof TierQualifier.Type

export const DutyHolderType = Schema.Literal("role", "team", "person", "third_party")
export type DutyHolderType = typeof DutyHolderType.Type

export const InheritedFrom = Schema.Struct({ entityType: EntityType, entityId: Schema.String })

/** SPEC 2.4. `advancementTierId` is present only when the qualifier refers to a tier. */
export const DutyRow = Schema.Struct({
  role: RaciRole,
  entityType: EntityType,
  entityId: Schema.String,
  entityName: Schema.String,
  inheritedFrom: Schema.NullOr(InheritedFrom),
  tierQualifier: TierQualifier,
  advancementTierId: Schema.optional(Schema.String),
  advancementTierLabel: Schema.NullOr(Schema.String),
  url: Schema.String
}).annotations({ identifier: "DutyRow" })
export type DutyRow = typeof DutyRow.Type

/**
 * "Ordered by entity type": the order in which SPEC lists the entity types
 * everywhere (TOPIC, ITEM, SPACE, CATEGORY), i.e. the type's declared order.
 */
export const entityTypeOrder: ReadonlyArray<EntityType> = EntityType.literals
