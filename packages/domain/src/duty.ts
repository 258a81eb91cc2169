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

/** `advancementTierId` is present only when the qualifier refers to a tier. */
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
 * "Ordered by entity type": the order in which the contract lists the entity types
 * everywhere (TOPIC, ITEM, SPACE, CATEGORY), i.e. the type's declared order.
 */
export const entityTypeOrder: ReadonlyArray<EntityType> = EntityType.literals

/** GET /v1/duties parameters: the entity whose duties are read. */
export const EntityDutiesParams = Schema.Struct({
  entityType: EntityType.annotations({ description: "The kind of entity" }),
  entityId: Schema.String.annotations({ description: "The entity's id" })
})
export type EntityDutiesParams = typeof EntityDutiesParams.Type

/** Who holds a duty: a company role, a team, a person or a third party, by id and name. */
export const DutyHolder = Schema.Struct({
  type: DutyHolderType,
  id: Schema.String,
  name: Schema.String
}).annotations({ identifier: "DutyHolder" })
export type DutyHolder = typeof DutyHolder.Type

/**
 * One duty that reaches an entity: held on the entity
 * itself (`inheritedFrom` null) or on one of its ancestors. The tier fields
 * follow the duty rows': ALL unless the holder is a company role with an
 * advancement path.
 */
export const EntityDutyRow = Schema.Struct({
  holder: DutyHolder,
  role: RaciRole,
  inheritedFrom: Schema.NullOr(InheritedFrom),
  tierQualifier: TierQualifier,
  advancementTierId: Schema.optional(Schema.String),
  advancementTierLabel: Schema.NullOr(Schema.String)
}).annotations({ identifier: "EntityDutyRow" })
export type EntityDutyRow = typeof EntityDutyRow.Type

/** Every duty reaching one entity, on one page: direct first, then by ancestor depth, RACI order, holder name. */
export const EntityDuties = Schema.Struct({
  entityType: EntityType,
  entityId: Schema.String,
  entityName: Schema.String,
  data: Schema.Array(EntityDutyRow),
  nextCursor: Schema.Null.annotations({ description: "Always null: this list is one page" })
}).annotations({ identifier: "EntityDuties" })
export type EntityDuties = typeof EntityDuties.Type
