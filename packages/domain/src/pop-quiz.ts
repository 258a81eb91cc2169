import { Schema } from "effect"
import { Count, EntityRef, Fraction, Timestamp } from "./common.js"
import { PopQuizId } from "./ids.js"
import { PageParams } from "./page-params.js"
import { BooleanFromQuery } from "./pagination.js"
import { PersonRef } from "./training.js"

/** A recipient's progress on their pop quiz. */
export const PopQuizRecipientStatus = Schema.Literal("not_started", "STARTED", "COMPLETED")
export type PopQuizRecipientStatus = typeof PopQuizRecipientStatus.Type

/** Own list row: a pop quiz sent to the caller, with their own status and score. */
export const MyPopQuiz = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  prompt: Schema.String,
  dueDate: Timestamp,
  url: Schema.String,
  status: PopQuizRecipientStatus,
  completedAt: Schema.NullOr(Timestamp),
  score: Schema.NullOr(Fraction)
}).annotations({ identifier: "MyPopQuiz" })
export type MyPopQuiz = typeof MyPopQuiz.Type

/** How many were sent the quiz and how many completed it. */
export const PopQuizCounts = Schema.Struct({ recipientCount: Count, completedCount: Count })

/** Organization list row: a pop quiz the organization sent. */
export const PopQuiz = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  prompt: Schema.String,
  dueDate: Timestamp,
  createdAt: Timestamp,
  sentBy: Schema.NullOr(EntityRef).annotations({ description: "null when the account is gone or the system sent it" }),
  announcementId: Schema.NullOr(Schema.String).annotations({ description: "Set when the quiz certifies an announcement" }),
  ...PopQuizCounts.fields,
  url: Schema.String
}).annotations({ identifier: "PopQuiz" })
export type PopQuiz = typeof PopQuiz.Type

export const PopQuizRecipient = Schema.Struct({
  user: PersonRef,
  status: PopQuizRecipientStatus,
  completedAt: Schema.NullOr(Timestamp),
  score: Schema.NullOr(Fraction)
}).annotations({ identifier: "PopQuizRecipient" })
export type PopQuizRecipient = typeof PopQuizRecipient.Type

/** Detail: an organization admin sees every recipient; a recipient only their own row, and the summary counts the rows shown. */
export const PopQuizDetail = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  prompt: Schema.String,
  dueDate: Timestamp,
  createdAt: Timestamp,
  url: Schema.String,
  recipients: Schema.Array(PopQuizRecipient),
  summary: PopQuizCounts
}).annotations({ identifier: "PopQuizDetail" })
export type PopQuizDetail = typeof PopQuizDetail.Type

/** GET /v1/pop-quizzes parameters. */
export const PopQuizListParams = Schema.Struct({
  sentByMe: Schema.optional(BooleanFromQuery.annotations({ description: "true lists only quizzes the caller sent" })),
  ...PageParams.fields
})
export type PopQuizListParams = typeof PopQuizListParams.Type

/** A pop quiz's id in the path. */
export const PopQuizPath = Schema.Struct({ id: PopQuizId })
