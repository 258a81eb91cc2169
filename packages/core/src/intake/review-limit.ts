import { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { RateLimiter } from "../rate-limits/service.js"
import type { ReportLimit } from "../rate-limits/report.js"
import { SpecRules } from "../rate-limits/rules.js"

/**
 * SPEC 8: contributions that go to review, 3 a minute and 20 an hour per
 * person, one count shared by both document endpoints, the tools and all the
 * person's tokens (so the subject is the person, never the token). Counted
 * only for review-bound submissions, once they are known valid and before
 * anything is fetched or created; a refusal (429
 * REVIEW_SUBMISSION_LIMIT_REACHED) creates nothing and counts nothing.
 */
export const consumeReviewSubmission = (
  limiter: RateLimiter,
  actor: Actor,
  report: ReportLimit
) =>
  Effect.asVoid(report(limiter.consume(SpecRules.reviewSubmissions, { organizationId: actor.organizationId, key: actor.userId })))
