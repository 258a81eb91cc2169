import { Effect } from "effect"
import { Caller } from "@tks/domain/caller"
import type { OrganizationId } from "@tks/domain/ids"
import { Journal } from "../journal/journal.js"
import { NotificationOutbox } from "../notifications/outbox.js"
import { WebhookEndpointsRepo } from "./endpoints-repo.js"

/**
 * How the service stops deliveries to an endpoint (when it is still
 * enabled): an act of the worker's, audited, and the organization's admins
 * told by email, in the caller's transaction. Both delivery jobs use it: a
 * 410 Gone, or an endpoint failing for days.
 */
export const endpointDisabler = Effect.gen(function*() {
  const endpoints = yield* WebhookEndpointsRepo
  const outbox = yield* NotificationOutbox
  const journal = yield* Journal
  return (orgId: OrganizationId, endpointId: string, reason: string) =>
    Effect.gen(function*() {
      const row = yield* endpoints.disable(orgId, endpointId, reason)
      if (row === undefined) return
      yield* journal.record({
        caller: Caller.system("worker"),
        orgId,
        action: "webhook_endpoint.updated",
        targets: [{ type: "webhook_endpoint", id: endpointId }],
        changes: { disabled: { old: false, new: true } }
      })
      yield* outbox.tell({
        orgId,
        userIds: yield* endpoints.adminIds(orgId),
        notice: { _tag: "WebhookEndpointDisabled", endpointId, url: row.url, reason },
        channels: ["email"]
      })
      yield* Effect.logWarning("webhook endpoint disabled").pipe(Effect.annotateLogs({ endpointId, reason }))
    })
})
