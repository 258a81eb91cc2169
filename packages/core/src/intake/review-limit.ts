import { SqlClient } from "@effect/sql"
import { Data, Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { RateLimiter } from "../rate-limits/service.js"
import { actLimits } from "@tks/domain/rate-limit-rules"

/**
 * Contributions that go to review, 3 a minute and 20 an hour per
 * person, one count shared by both document endpoints, the tools and all the
 * person's tokens (so the subject is the person, never the token). Only a
 * submission that creates a review request counts: the count is taken in
 * the transaction that creates it, so any refusal after it (or a failure)
 * rolls the count back with everything else, and the counter's row lock
 * keeps concurrent submissions of one person exact. A refusal (429
 * REVIEW_SUBMISSION_LIMIT_REACHED) creates nothing and counts nothing.
 */
export const consumeReviewSubmission = (limiter: RateLimiter, actor: Actor) =>
  limiter.consume(actLimits.reviewSubmissions, { organizationId: actor.organizationId, key: actor.userId })

class Probed extends Data.TaggedError("Probed") {}

/**
 * Whether the person still has a review submission left, counting nothing:
 * the same exact count in a transaction that is always rolled back. For a
 * submission with costly work before its transaction (a fetch), so that a
 * limited caller causes none; the count itself is still taken when the
 * review request is created.
 */
export const probeReviewSubmission = (sql: SqlClient.SqlClient, limiter: RateLimiter, actor: Actor) =>
  sql.withTransaction(
    limiter.consume(actLimits.reviewSubmissions, { organizationId: actor.organizationId, key: actor.userId }).pipe(
      Effect.zipRight(Effect.fail(new Probed()))
    )
  ).pipe(
    Effect.catchTag("Probed", () => Effect.void)
  )
