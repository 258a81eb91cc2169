import { Schema } from "effect"
import { audienceProblem, AudienceFields } from "./assigning.js"
import { Timestamp } from "./common.js"
import { OffsetDateTime } from "./due-date.js"
import { QuizDifficulty } from "./quiz.js"
import type { Plan } from "./roles.js"
import { storableText } from "./text.js"

/**
 * Sending a pop quiz (POST /v1/pop-quizzes): the request, the
 * answer, and the rules that need no database: which difficulties a plan
 * includes, and the title and prompt a quiz gets
 * from its content.
 */

/** The pop-quiz difficulties each plan includes; every plan's default, MODERATE, among them. */
export const planDifficulties: Record<Plan, ReadonlyArray<QuizDifficulty>> = {
  starter: ["SIMPLE", "MODERATE"],
  pro: ["SIMPLE", "MODERATE", "CHALLENGING"],
  enterprise: ["SIMPLE", "MODERATE", "CHALLENGING", "ADVANCED"]
}

export const planIncludes = (plan: Plan, difficulty: QuizDifficulty): boolean => planDifficulties[plan].includes(difficulty)

/** What a sent quiz is called, and the sentence inviting its recipients, from its content's title. */
export const popQuizTitle = (contentTitle: string): string => `Pop quiz: ${contentTitle}`
export const popQuizPrompt = (contentTitle: string): string => `Answer a few questions about "${contentTitle}".`

/** How many questions each recipient is asked. */
export const popQuizQuestions = 5

/** POST /v1/pop-quizzes. */
export const PopQuizRequest = Schema.Struct({
  contentId: storableText(Schema.String).annotations({ description: "A video, document or guide from GET /v1/content" }),
  ...AudienceFields,
  dueDate: OffsetDateTime.annotations({ description: "ISO 8601 with a UTC offset; in the future" }),
  difficulty: Schema.optional(QuizDifficulty.annotations({
    description: "SIMPLE, MODERATE, CHALLENGING or ADVANCED; omitted: the organization's default (MODERATE). starter plans include SIMPLE and MODERATE, pro adds CHALLENGING, enterprise adds ADVANCED"
  }))
}).pipe(Schema.filter(audienceProblem, { jsonSchema: {} })).annotations({ identifier: "PopQuizRequest" })
export type PopQuizRequest = typeof PopQuizRequest.Type

/** The answer to POST /v1/pop-quizzes. */
export const PopQuizSent = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  dueDate: Timestamp,
  url: Schema.String.annotations({ description: "GET /v1/pop-quizzes/{id}: follow who has done it" })
}).annotations({ identifier: "PopQuizSent" })
export type PopQuizSent = typeof PopQuizSent.Type

/** Stable codes of POST /v1/pop-quizzes' refusals. */
export const PopQuizSendCode = {
  unknownContent: "UNKNOWN_CONTENT",
  dueDateNotInFuture: "DUE_DATE_NOT_IN_FUTURE",
  difficultyNotInPlan: "DIFFICULTY_NOT_IN_PLAN",
  cannotSeeContent: "RECIPIENT_CANNOT_SEE_CONTENT",
  generationFailed: "POP_QUIZ_GENERATION_FAILED"
} as const
