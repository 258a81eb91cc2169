import { Schema } from "effect"
import { Count, Timestamp } from "./common.js"
import { EntityType } from "./duty.js"
import { ThirdPartyId } from "./ids.js"
import { PageParams } from "./page-params.js"

/** A third party of the org chart (an outside firm holding duties). */
export const ThirdParty = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  dutyCount: Count.annotations({ description: "Duties held directly by the third party, before any expansion to descendants" }),
  createdAt: Timestamp,
  url: Schema.String
}).annotations({ identifier: "ThirdParty" })
export type ThirdParty = typeof ThirdParty.Type

/** How many of the third party's direct duties carry each RACI role. */
export const RaciSummary = Schema.Struct({
  RESPONSIBLE: Count,
  ACCOUNTABLE: Count,
  CONSULTED: Count,
  INFORMED: Count
}).annotations({ identifier: "RaciSummary" })
export type RaciSummary = typeof RaciSummary.Type

/** GET /v1/third-parties/{id}. */
export const ThirdPartyDetail = Schema.Struct({
  ...ThirdParty.fields,
  raciSummary: RaciSummary
}).annotations({ identifier: "ThirdPartyDetail" })
export type ThirdPartyDetail = typeof ThirdPartyDetail.Type

/** GET /v1/third-parties/{id}/duties parameters. */
export const ThirdPartyDutiesParams = Schema.Struct({
  entityType: Schema.optional(EntityType.annotations({ description: "Only duties on this kind of entity" })),
  ...PageParams.fields
})
export type ThirdPartyDutiesParams = typeof ThirdPartyDutiesParams.Type

/** A third party's id in the path. A plain string on the wire, never pattern checked: an id that is not ours is simply absent (404). */
export const ThirdPartyPath = Schema.Struct({ id: ThirdPartyId })
