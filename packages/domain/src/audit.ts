import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { OffsetDateTime } from "./due-date.js"
import { EventActor, EventType } from "./events.js"
import { PageParams } from "./page-params.js"

/**
 * The audit log: one row per act, written in the act's transaction
 * (docs/domain.md, Audit log). An act that emits events is named by its
 * first event's type; the acts that emit none have names of their own.
 */
export const AuditOnlyAction = Schema.Literal(
  "access_token.issued",
  "access_token.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.deleted",
  "webhook_endpoint.secret_rotated",
  "webhook_endpoint.tested",
  "webhook_delivery.replayed",
  "oauth_settings.set",
  "oauth_settings.cleared",
  "organization_domain.added",
  "organization_domain.removed",
  "directory_connection.connected",
  "directory_token.rotated",
  "directory_connection.paused",
  "directory_connection.resumed",
  "person.provisioned",
  "person.updated",
  "person.deactivated",
  "person.reactivated",
  "team.provisioned",
  "team.updated",
  "team.removed",
  "lesson.assigned",
  "lesson.unassigned",
  "lesson.retraining_policy_set",
  "obligation.merged",
  "review_request.cancelled",
  "content.drafted",
  "quiz_attempt.submitted",
  "pop_quiz.started",
  "lesson.started",
  "narration.synthesized",
  "organization.imported"
)
export type AuditOnlyAction = typeof AuditOnlyAction.Type

export const AuditAction = Schema.Union(EventType, AuditOnlyAction).annotations({
  identifier: "AuditAction",
  description: "What was done: an event type, or the name of an act that emits no event."
})
export type AuditAction = typeof AuditAction.Type

export const AuditTarget = Schema.Struct({
  type: Schema.String.annotations({ description: "The kind of record: `obligation`, `lesson`, `webhook_endpoint`, ..." }),
  id: Schema.String
}).annotations({ identifier: "AuditTarget" })
export type AuditTarget = typeof AuditTarget.Type

/** A changed field's value before and after the act (absent: the field did not exist before, or no longer does). */
export const AuditChange = Schema.Struct({
  old: Schema.optional(Schema.Unknown),
  new: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "AuditChange" })
export type AuditChange = typeof AuditChange.Type

export const AuditEvent = Schema.Struct({
  id: Schema.String,
  occurredAt: Timestamp,
  action: Schema.String.annotations({ description: "What was done: an event type, or the name of an act that emits no event." }),
  actor: EventActor,
  targets: Schema.Array(AuditTarget),
  changes: Schema.NullOr(Schema.Record({ key: Schema.String, value: AuditChange })).annotations({
    description: "The fields the act changed, with their old and new values (secrets are never shown); null when it changed none."
  }),
  requestId: Schema.NullOr(Schema.String),
  clientIp: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AuditEvent" })
export type AuditEvent = typeof AuditEvent.Type

export const AuditEventParams = Schema.Struct({
  actor: Schema.optional(Schema.String.annotations({ description: "Only acts by this person (a person id)." })),
  target: Schema.optional(Schema.String.annotations({ description: "Only acts on this record (any record's id)." })),
  type: Schema.optional(Schema.String.annotations({ description: "Only acts of this name (an event type or another act's name)." })),
  since: Schema.optional(OffsetDateTime.annotations({ description: "Only acts at or after this instant (ISO 8601 with offset)." })),
  until: Schema.optional(OffsetDateTime.annotations({ description: "Only acts before this instant (ISO 8601 with offset)." })),
  ...PageParams.fields
})
export type AuditEventParams = typeof AuditEventParams.Type
