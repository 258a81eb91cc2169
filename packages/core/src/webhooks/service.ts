import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { WebhookSender } from "@tks/adapters/webhooks/port"
import type { AuditChange } from "@tks/domain/audit"
import { Caller } from "@tks/domain/caller"
import { BadRequest, BadRequestCode, InputIssue, NotFound } from "@tks/domain/errors"
import type { EventType } from "@tks/domain/events"
import type { OrganizationId, WebhookDeliveryId, WebhookEndpointId } from "@tks/domain/ids"
import type { PageParams } from "@tks/domain/page-params"
import type { Access } from "@tks/domain/policy"
import {
  type CreateWebhookEndpoint,
  PING_TYPE,
  type ReplayFailedDeliveries,
  type ReplayQueued,
  type UpdateWebhookEndpoint,
  WebhookCode,
  type WebhookDeliveryListParams,
  type WebhookPing
} from "@tks/domain/webhooks"
import { parseOffsetDateTime } from "@tks/domain/due-date"
import { newId } from "../common/ids.js"
import { newestFirst } from "../common/keyset.js"
import { Pagination } from "../common/pagination.js"
import { traced } from "../common/traced.js"
import { JobsRepo } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { WebhookDeliveriesRepo } from "./deliveries-repo.js"
import { type EndpointChange, type EndpointRow, WebhookEndpointsRepo } from "./endpoints-repo.js"
import { WEBHOOK_DELIVERY_ATTEMPTS } from "./schedule.js"
import { newSigningSecret } from "./secrets.js"
import { deliveryView, endpointView, endpointWithSecretView } from "./views.js"

const noSuchEndpoint = () => new NotFound({ message: "No such webhook endpoint" })
const noSuchDelivery = () => new NotFound({ message: "No such webhook delivery" })

const endpointDisabled = () =>
  new BadRequest({
    code: WebhookCode.endpointDisabled,
    message: "The webhook endpoint is disabled: enable it first (disabled: false)"
  })

/** The address refused as a webhook target, as a bad `url` field. */
const refusedUrl = (reason: string) =>
  new BadRequest({
    code: BadRequestCode.validation,
    message: `url: this address cannot receive webhooks: ${reason}`,
    issues: [new InputIssue({ path: "url", message: `this address cannot receive webhooks: ${reason}` })]
  })

const DISABLED_BY_ADMIN = "disabled by an organization admin"

/** The types in the order given, each once. */
const distinct = (types: ReadonlyArray<EventType>): ReadonlyArray<EventType> => [...new Set(types)]

const sameTypes = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((type, i) => type === b[i])

const endpointTarget = (id: string) => ({ type: "webhook_endpoint", id })
const deliveryTarget = (id: string) => ({ type: "webhook_delivery", id })

/**
 * An organization's webhook endpoints and their delivery log
 * (docs/webhooks.md), under the admins-only policies of
 * policies.webhooks: every read and act is the caller's organization's, and
 * another organization's endpoint or delivery is absent (404). Each act
 * runs in one transaction with its audit row (Journal); a secret is shown
 * when made and never recorded.
 */
export class WebhookEndpoints extends Effect.Service<WebhookEndpoints>()("@tks/core/WebhookEndpoints", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const endpoints = yield* WebhookEndpointsRepo
    const deliveries = yield* WebhookDeliveriesRepo
    const jobs = yield* JobsRepo
    const journal = yield* Journal
    const pagination = yield* Pagination
    const sender = yield* WebhookSender

    const checkUrl = (url: string) => {
      const reason = sender.refusal(new URL(url))
      return reason === undefined ? Effect.void : Effect.fail(refusedUrl(reason))
    }

    const found = (orgId: OrganizationId, id: string, forUpdate = false) =>
      Effect.flatMap(endpoints.find(orgId, id, forUpdate), (row) => row === undefined ? Effect.fail(noSuchEndpoint()) : Effect.succeed(row))

    const enabled = (row: EndpointRow) => (row.disabled_at === null ? Effect.succeed(row) : Effect.fail(endpointDisabled()))

    /** Queues deliveries now: new jobs, and any still waiting for a retry made due. */
    const queue = (orgId: OrganizationId, ids: ReadonlyArray<string>) =>
      Effect.zipRight(
        jobs.enqueueMany({ orgId, kind: "webhook.deliver", subjectIds: ids, maxAttempts: WEBHOOK_DELIVERY_ATTEMPTS }),
        jobs.runSoon({ orgId, kind: "webhook.deliver", subjectIds: ids })
      )

    const create = traced("WebhookEndpoints.create")(function*(access: Access, input: CreateWebhookEndpoint) {
      yield* checkUrl(input.url)
      const orgId = access.actor.organizationId
      const eventTypes = distinct(input.eventTypes)
      const description = input.description ?? null
      return yield* Effect.gen(function*() {
        const row = yield* endpoints.insert(orgId, { url: input.url, description, eventTypes, secret: newSigningSecret() })
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: "webhook_endpoint.created",
          targets: [endpointTarget(row.id)],
          changes: { url: { new: row.url }, eventTypes: { new: eventTypes }, description: { new: description } }
        })
        return endpointWithSecretView(row)
      }).pipe(sql.withTransaction)
    })

    const list = traced("WebhookEndpoints.list")(function*(access: Access, params: PageParams) {
      const orgId = access.actor.organizationId
      return yield* pagination.page({
        listing: ["webhook-endpoints", orgId],
        params,
        keyset: newestFirst,
        rows: (after, limit) => endpoints.page(orgId, after, limit),
        view: endpointView
      })
    })

    const get = traced("WebhookEndpoints.get")(function*(access: Access, id: WebhookEndpointId) {
      return endpointView(yield* found(access.actor.organizationId, id))
    })

    const update = traced("WebhookEndpoints.update")(function*(access: Access, id: WebhookEndpointId, input: UpdateWebhookEndpoint) {
      if (input.url !== undefined) yield* checkUrl(input.url)
      const orgId = access.actor.organizationId
      return yield* Effect.gen(function*() {
        const before = yield* found(orgId, id, true)
        const change: { -readonly [K in keyof EndpointChange]: EndpointChange[K] } = {}
        const changes: Record<string, AuditChange> = {}
        if (input.url !== undefined && input.url !== before.url) {
          change.url = input.url
          changes.url = { old: before.url, new: input.url }
        }
        if (input.eventTypes !== undefined && !sameTypes(distinct(input.eventTypes), before.event_types)) {
          change.eventTypes = distinct(input.eventTypes)
          changes.eventTypes = { old: before.event_types, new: change.eventTypes }
        }
        if (input.description !== undefined && input.description !== before.description) {
          change.description = input.description
          changes.description = { old: before.description, new: input.description }
        }
        if (input.disabled !== undefined && input.disabled !== (before.disabled_at !== null)) {
          change.disabled = input.disabled ? { reason: DISABLED_BY_ADMIN } : false
          changes.disabled = { old: !input.disabled, new: input.disabled }
        }
        if (Object.keys(changes).length === 0) return endpointView(before)
        const after = (yield* endpoints.update(orgId, id, change))!
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: "webhook_endpoint.updated",
          targets: [endpointTarget(id)],
          changes
        })
        return endpointView(after)
      }).pipe(sql.withTransaction)
    })

    const remove = traced("WebhookEndpoints.remove")(function*(access: Access, id: WebhookEndpointId) {
      const orgId = access.actor.organizationId
      yield* Effect.gen(function*() {
        const before = yield* found(orgId, id, true)
        yield* endpoints.remove(orgId, id)
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: "webhook_endpoint.deleted",
          targets: [endpointTarget(id)],
          changes: { url: { old: before.url }, eventTypes: { old: before.event_types }, description: { old: before.description } }
        })
      }).pipe(sql.withTransaction)
    })

    const rotateSecret = traced("WebhookEndpoints.rotateSecret")(function*(access: Access, id: WebhookEndpointId) {
      const orgId = access.actor.organizationId
      return yield* Effect.gen(function*() {
        const row = yield* endpoints.rotate(orgId, id, newSigningSecret())
        if (row === undefined) return yield* noSuchEndpoint()
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: "webhook_endpoint.secret_rotated",
          targets: [endpointTarget(id)],
          changes: { previousSecretExpiresAt: { new: row.previous_secret_expires_at?.toISOString() } }
        })
        return endpointWithSecretView(row)
      }).pipe(sql.withTransaction)
    })

    /** A ping (type `ping`, data {endpointId}), delivered, retried and logged as any delivery. */
    const test = traced("WebhookEndpoints.test")(function*(access: Access, id: WebhookEndpointId) {
      const orgId = access.actor.organizationId
      const now = yield* Clock.currentTimeMillis
      return yield* Effect.gen(function*() {
        yield* Effect.flatMap(found(orgId, id), enabled)
        const ping: WebhookPing = {
          id: newId("event"),
          type: PING_TYPE,
          occurredAt: new Date(now).toISOString(),
          organizationId: orgId,
          data: { endpointId: id }
        }
        const row = yield* deliveries.insertPing(orgId, id, ping)
        yield* queue(orgId, [row.id])
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: "webhook_endpoint.tested",
          targets: [endpointTarget(id), deliveryTarget(row.id)]
        })
        return deliveryView(row)
      }).pipe(sql.withTransaction)
    })

    const deliveryLog = traced("WebhookEndpoints.deliveries")(function*(access: Access, id: WebhookEndpointId, params: WebhookDeliveryListParams) {
      const orgId = access.actor.organizationId
      yield* found(orgId, id)
      const status = params.status ?? null
      return yield* pagination.page({
        listing: ["webhook-deliveries", orgId, id, status],
        params,
        keyset: newestFirst,
        rows: (after, limit) => deliveries.page(orgId, id, status, after, limit),
        view: deliveryView
      })
    })

    /** The delivery queued again now, with the same `webhook-id`. */
    const replayDelivery = traced("WebhookEndpoints.replayDelivery")(function*(access: Access, id: WebhookDeliveryId) {
      const orgId = access.actor.organizationId
      return yield* Effect.gen(function*() {
        const before = yield* deliveries.find({ orgId, id })
        if (before === undefined) return yield* noSuchDelivery()
        if (before.endpoint_disabled) return yield* endpointDisabled()
        const row = (yield* deliveries.replay({ orgId, id }))!
        yield* queue(orgId, [id])
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: "webhook_delivery.replayed",
          targets: [deliveryTarget(id), endpointTarget(row.endpoint_id)],
          changes: before.status === "PENDING" ? undefined : { status: { old: before.status, new: "PENDING" } }
        })
        return deliveryView(row)
      }).pipe(sql.withTransaction)
    })

    /** Every FAILED delivery of the endpoint since `since`, queued again; how many. */
    const replayFailed = traced("WebhookEndpoints.replayFailed")(function*(access: Access, id: WebhookEndpointId, input: ReplayFailedDeliveries) {
      const orgId = access.actor.organizationId
      // Checked by the payload's schema.
      const since = parseOffsetDateTime(input.since)!
      return yield* Effect.gen(function*() {
        yield* Effect.flatMap(found(orgId, id), enabled)
        const replayed = yield* deliveries.replayFailedSince(orgId, id, since)
        yield* queue(orgId, replayed)
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: "webhook_delivery.replayed",
          targets: [endpointTarget(id)],
          changes: replayed.length === 0 ? undefined : { status: { old: "FAILED", new: "PENDING" } }
        })
        const answer: ReplayQueued = { queued: replayed.length }
        return answer
      }).pipe(sql.withTransaction)
    })

    return { create, list, get, update, remove, rotateSecret, test, deliveries: deliveryLog, replayDelivery, replayFailed } as const
  }),
  dependencies: [WebhookEndpointsRepo.Default, WebhookDeliveriesRepo.Default, JobsRepo.Default, Journal.Default, Pagination.Default]
}) {}
