import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { PageParams } from "./page-params.js"

/**
 * The events an organization's acts emit (docs/domain.md, Events and
 * webhooks). An act writes its events in its own transaction, so an event
 * exists exactly when the change committed. The same record is what the
 * feed (`GET /v1/events`) lists and what a webhook delivers: one shape,
 * `Event`, whatever the channel.
 *
 * Each event names the records it is about by id and by name, as an
 * organization admin reads them (the feed and webhooks are theirs), and
 * never carries more than that: no secrets, no answers, no message bodies.
 */

const describe = (description: string) => ({ description })

/** Who caused an event: a person through an access token (or an identity provider's token), or the service itself. */
export const EventActor = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("person"),
    personId: Schema.String,
    tokenId: Schema.NullOr(Schema.String).annotations(
      describe("The access token the person used; null when they signed in with an identity provider's token.")
    )
  }),
  Schema.Struct({
    type: Schema.Literal("system"),
    name: Schema.String.annotations(describe("Which part of the service: `cli`, `worker`, ..."))
  })
).annotations({ identifier: "EventActor", description: "Who caused the event." })
export type EventActor = typeof EventActor.Type

export const PersonRef = Schema.Struct({ id: Schema.String, name: Schema.String, email: Schema.String }).annotations({
  identifier: "EventPerson",
  description: "A person of the organization."
})
export const LessonRef = Schema.Struct({ id: Schema.String, title: Schema.String }).annotations({ identifier: "EventLesson" })
export const ContentRef = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  kind: Schema.Literal("document", "video", "guide")
}).annotations({ identifier: "EventContent" })

const ObligationRef = Schema.Struct({
  id: Schema.String,
  itemType: Schema.String.annotations(describe("What is owed: `lesson`, `topic` or `item`.")),
  itemId: Schema.String,
  required: Schema.Boolean,
  dueDate: Schema.NullOr(Timestamp)
}).annotations({ identifier: "EventObligation" })

const ReviewRequestRef = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  resourceType: Schema.String
}).annotations({ identifier: "EventReviewRequest" })

/** Each event type with the schema of its `data`. */
export const eventData = {
  "content.published": Schema.Struct({ content: ContentRef }),
  "content.processed": Schema.Struct({ content: ContentRef }),
  "content.processing_failed": Schema.Struct({ content: ContentRef, reason: Schema.String }),
  "review_request.submitted": Schema.Struct({ reviewRequest: ReviewRequestRef, content: ContentRef, person: PersonRef }),
  "review_request.decided": Schema.Struct({
    reviewRequest: ReviewRequestRef,
    decision: Schema.Literal("APPROVED", "REJECTED", "CHANGES_REQUESTED"),
    note: Schema.NullOr(Schema.String),
    content: Schema.NullOr(ContentRef).annotations(describe("Null for a request about an issue alone, with no content.")),
    person: PersonRef.annotations(describe("Who submitted the request."))
  }),
  "enrollment.created": Schema.Struct({ enrollment: Schema.Struct({ id: Schema.String }), lesson: LessonRef, person: PersonRef }),
  "enrollment.completed": Schema.Struct({
    enrollment: Schema.Struct({ id: Schema.String, score: Schema.NullOr(Schema.Number) }),
    lesson: LessonRef,
    person: PersonRef
  }),
  "obligation.created": Schema.Struct({ obligation: ObligationRef, person: PersonRef }),
  "obligation.completed": Schema.Struct({ obligation: ObligationRef, person: PersonRef }),
  "obligation.waived": Schema.Struct({ obligation: ObligationRef, person: PersonRef, reason: Schema.String }),
  "obligation.cancelled": Schema.Struct({ obligation: ObligationRef, person: PersonRef, reason: Schema.String }),
  "obligation.due_date_changed": Schema.Struct({
    obligation: ObligationRef,
    person: PersonRef,
    previousDueDate: Schema.NullOr(Timestamp)
  }),
  "pop_quiz.sent": Schema.Struct({
    popQuiz: Schema.Struct({ id: Schema.String, title: Schema.String, dueDate: Timestamp, recipients: Schema.Number }),
    content: ContentRef
  }),
  "pop_quiz.completed": Schema.Struct({
    popQuiz: Schema.Struct({ id: Schema.String, title: Schema.String }),
    person: PersonRef,
    score: Schema.NullOr(Schema.Number)
  }),
  "narration.allowance_exhausted": Schema.Struct({
    month: Schema.String.annotations(describe("The UTC month whose allowance is used up, `YYYY-MM`.")),
    allowance: Schema.Number.annotations(describe("The month's allowance, in characters."))
  })
} as const

export type EventType = keyof typeof eventData
export const EventType = Schema.Literal(...(Object.keys(eventData) as [EventType, ...Array<EventType>])).annotations({
  identifier: "EventType"
})
export type EventDataOf<T extends EventType> = (typeof eventData)[T]["Type"]

/** The fields every event has, around its type's `data`. */
const envelope = {
  id: Schema.String.annotations(describe("The event's id; a webhook delivers it as `webhook-id`, the same on every retry.")),
  occurredAt: Timestamp,
  position: Schema.Number.annotations(
    describe("The event's place in the organization's feed: increasing, so a receiver can order and deduplicate.")
  ),
  organizationId: Schema.String,
  actor: EventActor
}

const eventOf = <T extends EventType>(type: T) =>
  Schema.Struct({ ...envelope, type: Schema.Literal(type), data: eventData[type] }).annotations({
    identifier: `Event_${type.replace(/\./g, "_")}`,
    title: type
  })

/** One event, as the feed lists it and a webhook delivers it. */
export const Event = Schema.Union(...(EventType.literals.map(eventOf) as [ReturnType<typeof eventOf>])).annotations({
  identifier: "Event"
})
export type Event = typeof Event.Type

/** The schema of one event type, for the OpenAPI document's `webhooks`. */
export const eventSchemaOf = eventOf

/** A feed position as a query parameter: digits only. */
const PositionText = Schema.String.pipe(
  Schema.pattern(/^\d{1,18}$/, { message: () => "must be an event's position (a whole number)" })
)

export const EventFeedParams = Schema.Struct({
  after: Schema.optional(PositionText.annotations({
    description: "Only events after this position: the `position` of the last event you processed. A `cursor` from a page of the same listing takes precedence."
  })),
  type: Schema.optional(EventType.annotations({ description: "Only events of this type." })),
  ...PageParams.fields
})
export type EventFeedParams = typeof EventFeedParams.Type

/** How long the feed keeps an event. */
export const EVENT_RETENTION_DAYS = 30

