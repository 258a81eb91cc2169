import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { OrganizationId } from "@tks/domain/ids"
import { JobsRepo } from "../jobs/repo.js"
import { WebhookDeliveriesRepo } from "./deliveries-repo.js"
import { WebhookEndpointsRepo } from "./endpoints-repo.js"

/** The subject of a "webhook.fanout" job: the endpoint and the time its deliveries were made, to the microsecond. */
export const fanoutSubject = (endpointId: string, createdUs: string): string => `${endpointId}@${createdUs}`

export const parseFanoutSubject = (subject: string): { readonly endpointId: string; readonly createdUs: string } | undefined => {
  const at = subject.lastIndexOf("@")
  const createdUs = subject.slice(at + 1)
  return at <= 0 || !/^-?\d{1,18}$/.test(createdUs) ? undefined : { endpointId: subject.slice(0, at), createdUs }
}

/**
 * From an act's events to their webhook deliveries (docs/webhooks.md), in
 * the act's own transaction: a delivery exists exactly when its event does,
 * and an act rolled back delivers nothing.
 */
export class WebhookFanout extends Effect.Service<WebhookFanout>()("@tks/core/WebhookFanout", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const endpoints = yield* WebhookEndpointsRepo
    const deliveries = yield* WebhookDeliveriesRepo
    const jobs = yield* JobsRepo

    /**
     * One delivery per event at `positions` (the journal's answer) and
     * enabled endpoint of the organization subscribed to the event's type,
     * and one "webhook.fanout" job per endpoint that got any, which queues
     * their "webhook.deliver" jobs after the act (fanout-job.ts): a job row
     * per delivery written here would cost the act as much again as the
     * deliveries themselves (20,000 enrollments: see docs/benchmarks.md).
     * One indexed read when the organization has no enabled endpoint, the
     * common case; otherwise two statements more however many events.
     * Answers how many deliveries it wrote.
     */
    const fanOut = (orgId: string, positions: ReadonlyArray<string>): Effect.Effect<number, SqlError> =>
      positions.length === 0 ? Effect.succeed(0) : Effect.gen(function*() {
        const organizationId = OrganizationId.make(orgId)
        const enabled = yield* endpoints.enabledIds(organizationId)
        if (enabled.length === 0) return 0
        return yield* sql.withTransaction(Effect.gen(function*() {
          const made = yield* deliveries.fanOut(organizationId, positions, enabled)
          yield* jobs.enqueueMany({
            orgId: organizationId,
            kind: "webhook.fanout",
            subjectIds: made.map((share) => fanoutSubject(share.endpoint_id, share.created_us))
          })
          return made.reduce((sum, share) => sum + share.deliveries, 0)
        }))
      })

    return { fanOut } as const
  }),
  dependencies: [WebhookEndpointsRepo.Default, WebhookDeliveriesRepo.Default, JobsRepo.Default]
}) {}
