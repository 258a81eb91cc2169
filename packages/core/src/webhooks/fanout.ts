import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { OrganizationId } from "@tks/domain/ids"
import { JobsRepo } from "../jobs/repo.js"
import { type FanoutSpan, spanOf } from "./span.js"
import { WebhookEndpointsRepo } from "./endpoints-repo.js"

/** The subject of a "webhook.fanout" job: the endpoint and the span of the act's positions. */
export const fanoutSubject = (endpointId: string, span: FanoutSpan): string => `${endpointId}@${span.first}-${span.last}`

export const parseFanoutSubject = (subject: string): { readonly endpointId: string; readonly span: FanoutSpan } | undefined => {
  const match = /^(.+)@(\d{1,18})-(\d{1,18})$/.exec(subject)
  if (match === null) return undefined
  const span = { first: match[2]!, last: match[3]! }
  return BigInt(span.first) <= BigInt(span.last) ? { endpointId: match[1]!, span } : undefined
}

/**
 * From an act's events to their webhook deliveries (docs/webhooks.md). In
 * the act's own transaction it queues one "webhook.fanout" job for each
 * enabled endpoint subscribed to any of the events' types, naming the span
 * of their positions; after the commit the job writes the deliveries and
 * queues their delivery jobs (fanout-job.ts). The act pays one job row per
 * endpoint however many events it emits (writing 20,000 deliveries in it
 * cost more than a second: docs/benchmarks.md); a delivery is only ever
 * made for an event that committed, and an act rolled back queues nothing.
 */
export class WebhookFanout extends Effect.Service<WebhookFanout>()("@tks/core/WebhookFanout", {
  effect: Effect.gen(function*() {
    const endpoints = yield* WebhookEndpointsRepo
    const jobs = yield* JobsRepo

    /**
     * One indexed read when the organization has no enabled endpoint
     * subscribed to `types`, the common case; otherwise one statement more.
     * Answers how many endpoints it queued a fan-out for.
     */
    const fanOut = (orgId: string, positions: ReadonlyArray<string>, types: ReadonlyArray<string>): Effect.Effect<number, SqlError> =>
      positions.length === 0 ? Effect.succeed(0) : Effect.gen(function*() {
        const organizationId = OrganizationId.make(orgId)
        const subscribed = yield* endpoints.subscribedIds(organizationId, types)
        if (subscribed.length === 0) return 0
        const span = spanOf(positions)
        yield* jobs.enqueueMany({
          orgId: organizationId,
          kind: "webhook.fanout",
          subjectIds: subscribed.map((endpointId) => fanoutSubject(endpointId, span))
        })
        return subscribed.length
      })

    return { fanOut } as const
  }),
  dependencies: [WebhookEndpointsRepo.Default, JobsRepo.Default]
}) {}
