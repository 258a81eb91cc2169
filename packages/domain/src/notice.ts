/**
 * What a person is told by email and text (docs/domain.md,
 * Notifications). An act writes one notice per person into the outbox in
 * its own transaction; the dispatcher renders and delivers it later. The
 * wording is the product's (the contract leaves the content open); the facts are
 * the act's, captured when it happened.
 */
export type Notice =
  | {
    readonly _tag: "LessonAssigned"
    readonly lessonId: string
    readonly title: string
    /** ISO timestamp, or null for no deadline. */
    readonly dueDate: string | null
  }
  | {
    readonly _tag: "RetrainingAssigned"
    readonly lessonId: string
    readonly title: string
    readonly dueDate: string | null
    readonly reason: string | null
  }
  | {
    readonly _tag: "ObligationWaived" | "ObligationCancelled"
    readonly lessonId: string
    readonly title: string
    readonly reason: string
  }
  | {
    readonly _tag: "DueDateChanged"
    readonly lessonId: string
    readonly title: string
    readonly dueDate: string | null
  }
  | {
    readonly _tag: "PopQuizReady"
    readonly popQuizId: string
    readonly title: string
    readonly dueDate: string
  }
  | {
    /** To the organization's admins: the service stopped delivering to a webhook endpoint (docs/webhooks.md). */
    readonly _tag: "WebhookEndpointDisabled"
    readonly endpointId: string
    /** The endpoint's address: what names it to the admins. */
    readonly url: string
    /** Why, as a clause: "it answered 410 Gone", "every delivery has failed since ...". */
    readonly reason: string
  }

export type NoticeKind = Notice["_tag"]
