import { Clock, Effect } from "effect"
import { BadRequest, BadRequestCode } from "@tks/domain/errors"
import { categories } from "@tks/domain/knowledge"
import {
  addTallies,
  assess,
  type CategoryHealth,
  emptyTally,
  FRESHNESS_DAYS,
  healthLevelOf,
  type Maturity,
  type MaturityParams
} from "@tks/domain/maturity"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { MaturityRepo } from "./repo.js"
import { traced } from "../common/traced.js"

const dayMs = 86_400_000

const unknownCategory = () =>
  new BadRequest({
    code: BadRequestCode.validation,
    message: `categorySlug must be one of: ${categories.map((category) => category.slug).join(", ")}`
  })

/**
 * Knowledge maturity for any
 * member: the level, signals and recommendations of one category or the
 * whole organization, and the 14-category health list. Counted over the live
 * graph the caller can read, so a viewer and an admin can see different
 * numbers; both reads rest on the same single per-category statement.
 */
export class KnowledgeMaturity extends Effect.Service<KnowledgeMaturity>()("@tks/core/KnowledgeMaturity", {
  effect: Effect.gen(function*() {
    const repo = yield* MaturityRepo

    const tallies = (access: Access) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        return yield* repo.categoryTallies(
          access.actor.organizationId,
          readerOf(access.actor),
          new Date(now - FRESHNESS_DAYS * dayMs)
        )
      })

    /** GET /v1/maturity: one category's maturity, or the organization's (the sum of its categories) without categorySlug. */
    const get = traced("KnowledgeMaturity.get")(function*(access: Access, params: MaturityParams) {
      const rows = yield* tallies(access)
      if (params.categorySlug === undefined) {
        const maturity: Maturity = { category: null, ...assess(rows.reduce(addTallies, emptyTally)) }
        return maturity
      }
      // Transports decode the slug already; a caller that did not still gets the 400 of an unknown slug.
      const row = rows.find((candidate) => candidate.slug === params.categorySlug)
      if (row === undefined) return yield* unknownCategory()
      const maturity: Maturity = { category: { slug: row.slug, name: row.name }, ...assess(row) }
      return maturity
    })

    /** GET /v1/category-health: the 14 categories in display order, each scored from MIN_TOPICS_TO_SCORE readable topics. */
    const categoryHealth = traced("KnowledgeMaturity.categoryHealth")(function*(access: Access) {
      const rows = yield* tallies(access)
      const data: ReadonlyArray<CategoryHealth> = rows.map((row) => ({
        slug: row.slug,
        name: row.name,
        level: healthLevelOf(row),
        topicCount: row.topics
      }))
      return { data, nextCursor: null }
    })

    return { get, categoryHealth } as const
  }),
  dependencies: [MaturityRepo.Default]
}) {}
