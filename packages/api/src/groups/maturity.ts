import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CategoryHealth, Maturity, MaturityParams, MIN_TOPICS_TO_SCORE } from "@tks/domain/maturity"
import { List } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

const counted =
  "Counted over the live graph the caller can read (spaces by visibility, their topics and items; evidence from published content and open lessons the caller can read), so a viewer and an admin can see different numbers for the same category."

/** Knowledge maturity and category health (also the get_maturity and list_category_health tools). */
export class MaturityGroup extends HttpApiGroup.make("maturity")
  .add(
    HttpApiEndpoint.get("get", "/maturity")
      .setUrlParams(MaturityParams)
      .addSuccess(Maturity)
      .annotate(OpenApi.Summary, "Read knowledge maturity")
      .annotate(
        OpenApi.Description,
        `The maturity level (UNDOCUMENTED, INITIAL, DEFINED, MANAGED, OPTIMIZED) of one category (categorySlug; an unknown slug is 400) or, without it, of the whole organization, with the signals it was read from (topics, items per topic, evidence, ownership, training, freshness and links between topics) and recommendations ranked by which one holds back the next level first, then by the size of the gap. ${counted}`
      )
      .pipe(requires(policies.maturity.get))
  )
  .add(
    HttpApiEndpoint.get("categoryHealth", "/category-health")
      .addSuccess(List(CategoryHealth))
      .annotate(OpenApi.Summary, "List category health")
      .annotate(
        OpenApi.Description,
        `The 14 categories in their display order, each with its maturity level, or null when the caller can read fewer than ${MIN_TOPICS_TO_SCORE} live topics in it (too few to score). One page; nextCursor is always null. ${counted}`
      )
      .pipe(requires(policies.maturity.categoryHealth))
  )
  .middleware(Authentication) {}
