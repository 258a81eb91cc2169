import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { EntityDuties, EntityDutiesParams } from "@tks/domain/duty"
import { NotFound } from "@tks/domain/errors"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** The duties reaching one entity of the knowledge graph. */
export class DutiesGroup extends HttpApiGroup.make("duties")
  .add(
    HttpApiEndpoint.get("entity", "/duties")
      .setUrlParams(EntityDutiesParams)
      .addSuccess(EntityDuties)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read the duties on an entity")
      .annotate(
        OpenApi.Description,
        "Every duty that reaches the topic, item, space or category, inherited ones included: duties on the entity itself (inheritedFrom null), then those on its ancestors (an item's parent items, its topic, the topic's space, the space's category), nearest first; within a level by RACI role (R, A, C, I), then holder name. Each row names its holder (company role, team, person or third party). One page. 404 when the entity is unknown, of another organization, out of the live graph or not readable by the caller."
      )
      .pipe(requires(policies.duties.entity))
  )
  .middleware(Authentication) {}
