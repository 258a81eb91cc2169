import { Schema } from "effect"

/**
 * A lesson's retraining policy (PUT /v1/lessons/{id}/retraining-policy),
 * as GET /v1/lessons/{id}/retraining-policy and the PUT both answer.
 * `none` turns retraining off; `recurring` retrains every `intervalDays`
 * from each person's completion, `changed_material` only when the lesson's
 * source content changed since that completion.
 */
export const RetrainingType = Schema.Literal("recurring", "none")
export type RetrainingType = typeof RetrainingType.Type

export const CompletionMode = Schema.Literal("full_retake", "changed_material")
export type CompletionMode = typeof CompletionMode.Type

export const RetrainingPolicy = Schema.Struct({
  lessonId: Schema.String,
  retrainingType: RetrainingType,
  intervalDays: Schema.NullOr(Schema.Number.annotations({ jsonSchema: { type: "integer", minimum: 1, maximum: 3650 } })),
  completionMode: Schema.NullOr(CompletionMode),
  updatedAt: Schema.NullOr(Schema.String.annotations({ jsonSchema: { format: "date-time" } }))
}).annotations({ identifier: "RetrainingPolicy" })
export type RetrainingPolicy = typeof RetrainingPolicy.Type

/** A stored policy's fields (updatedAt as sent on the wire). */
export interface StoredRetrainingPolicy {
  readonly intervalDays: number
  readonly completionMode: CompletionMode
  readonly updatedAt: string
}

/**
 * The policy a lesson answers with (GET and PUT alike): the stored one as
 * `recurring`, or without one `none` with null fields.
 */
export const retrainingPolicyOf = (lessonId: string, stored: StoredRetrainingPolicy | null): RetrainingPolicy =>
  stored === null
    ? { lessonId, retrainingType: "none", intervalDays: null, completionMode: null, updatedAt: null }
    : { lessonId, retrainingType: "recurring", ...stored }
