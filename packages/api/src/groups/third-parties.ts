import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { DutyRow } from "@tks/domain/duty"
import { NotFound } from "@tks/domain/errors"
import { List, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { ThirdParty, ThirdPartyDetail, ThirdPartyDutiesParams, ThirdPartyPath } from "@tks/domain/third-party"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** Outside firms of the org chart and their duties. */
export class ThirdPartiesGroup extends HttpApiGroup.make("thirdParties")
  .add(
    HttpApiEndpoint.get("list", "/third-parties")
      .addSuccess(List(ThirdParty))
      .annotate(OpenApi.Summary, "List third parties")
      .annotate(
        OpenApi.Description,
        "Every third party of the organization, by name then id, on one page, each with how many duties it holds directly."
      )
      .pipe(requires(policies.thirdParties.list))
  )
  .add(
    HttpApiEndpoint.get("get", "/third-parties/:id")
      .setPath(ThirdPartyPath)
      .addSuccess(ThirdPartyDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a third party")
      .annotate(
        OpenApi.Description,
        "The third party and its direct duties counted per RACI role. 404 for an unknown id or one of another organization."
      )
      .pipe(requires(policies.thirdParties.get))
  )
  .add(
    HttpApiEndpoint.get("duties", "/third-parties/:id/duties")
      .setPath(ThirdPartyPath)
      .setUrlParams(ThirdPartyDutiesParams)
      .addSuccess(Page(DutyRow))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "List a third party's duties")
      .annotate(
        OpenApi.Description,
        "The company-role duty listing for a third party: rows ordered by entity type (TOPIC, ITEM, SPACE, CATEGORY) then name, only for entities the caller can read. A duty on a topic reaches every item on it; a duty on a space or category expands to one row per descendant, each with inheritedFrom. A third party has no advancement path: tierQualifier is always ALL."
      )
      .pipe(requires(policies.thirdParties.duties))
  )
  .middleware(Authentication) {}
