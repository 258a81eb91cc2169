import { Schema } from "effect"
import { CompletionMode } from "@tks/domain/retraining-policy"
import { Key, Text, withDefault } from "./schema-common.js"
import { Timestamp } from "./timestamp.js"

/**
 * The training sections of the organization fixture (docs/fixtures.md):
 * reviews of members, retraining policies, mastery, enrollments with their
 * quiz and attempts, obligations, and pop quizzes with their recipients.
 */

const Fraction = Schema.Number.pipe(Schema.between(0, 1))
const Days = Schema.Int.pipe(Schema.between(1, 3650))
export const Difficulty = Schema.Literal("SIMPLE", "MODERATE", "CHALLENGING", "ADVANCED")

/** One prepared question, as enrollment_quizzes.questions and pop_quiz_recipients.questions keep it. */
export const FixtureQuestion = Schema.Struct({
  number: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
  kind: Schema.Literal("multiple_choice", "cloze"),
  question: Text,
  /** The options shown; empty for a cloze question. */
  choices: withDefault(Schema.Array(Schema.String), () => []),
  correctAnswer: Schema.String,
  explanation: withDefault(Schema.String, () => ""),
  /** A topic key of the fixture. */
  topic: Schema.optional(Key)
})
export type FixtureQuestion = typeof FixtureQuestion.Type
/** A prepared quiz has at least one question. */
const Questions = Schema.Array(FixtureQuestion).pipe(Schema.minItems(1))

/** One answered question of an attempt, as quiz_attempts.questions keeps it. */
const FixtureQuestionResult = Schema.Struct({
  number: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
  question: Schema.String,
  isCorrect: Schema.Boolean,
  score: Fraction,
  answer: withDefault(Schema.NullOr(Schema.String), () => null),
  correctAnswer: Schema.String,
  explanation: withDefault(Schema.String, () => "")
})

/** A dated note about a member; without an author it was written by nobody still on record. */
export const FixtureMemberReview = Schema.Struct({
  about: Key,
  author: Schema.optional(Key),
  reviewedAt: Timestamp,
  note: withDefault(Schema.NullOr(Schema.String), () => null)
})

export const FixtureRetrainingPolicy = Schema.Struct({
  lesson: Key,
  intervalDays: Days,
  completionMode: withDefault(CompletionMode, () => "full_retake" as const),
  updatedBy: Schema.optional(Key),
  updatedAt: Schema.optional(Timestamp)
})

export const FixtureMastery = Schema.Struct({
  person: Key,
  topic: Key,
  level: Schema.Literal("NONE", "PARTIAL", "MASTERED"),
  /** When it was last proven; import time when omitted. */
  provenAt: Schema.optional(Timestamp)
})

const FixtureAttempt = Schema.Struct({
  /** The enrollment's completedAt (or import time) when omitted. */
  completedAt: Schema.optional(Timestamp),
  score: Fraction,
  /** score >= 0.8 when omitted. */
  passed: Schema.optional(Schema.Boolean),
  /** "n of m correct" (or the score as a percentage) when omitted. */
  resultsSummary: Schema.optional(Schema.String),
  /** Derived from the enrollment's quiz questions when omitted: the first round(score x n) answered correctly. */
  questions: Schema.optional(Schema.Array(FixtureQuestionResult))
})

export const FixtureEnrollment = Schema.Struct({
  /** Only needed to find the enrollment's id in the import result. */
  key: Schema.optional(Key),
  person: Key,
  lesson: Key,
  status: withDefault(Schema.Literal("in_progress", "completed"), () => "in_progress" as const),
  /** The earliest of startedAt, completedAt and import time when omitted. */
  enrolledAt: Schema.optional(Timestamp),
  /** Not started when omitted, for an enrollment in progress; enrolledAt for a completed one. */
  startedAt: Schema.optional(Timestamp),
  /** Completed enrollments only; import time when omitted. */
  completedAt: Schema.optional(Timestamp),
  /** The last attempt's score when omitted. */
  score: Schema.optional(Fraction),
  /** Completed enrollments only; completedAt plus the lesson's retraining interval when omitted and the lesson has a policy. */
  retrainAt: Schema.optional(Schema.NullOr(Timestamp)),
  assignedBy: Schema.optional(Key),
  /** With questions the quiz is READY; omitted, it is PENDING and a "quiz.prepare" job is queued. */
  quiz: Schema.optional(Schema.Struct({
    questions: Questions,
    difficulty: withDefault(Difficulty, () => "MODERATE" as const)
  })),
  attempts: withDefault(Schema.Array(FixtureAttempt), () => [])
})
export type FixtureEnrollment = typeof FixtureEnrollment.Type

export const FixtureObligation = Schema.Struct({
  key: Schema.optional(Key),
  person: Key,
  /** Exactly one of lesson, topic and item: what is owed. */
  lesson: Schema.optional(Key),
  topic: Schema.optional(Key),
  item: Schema.optional(Key),
  /** assignment for a lesson, knowledge for a topic or item, when omitted. */
  kind: Schema.optional(Schema.Literal("assignment", "knowledge", "retraining")),
  status: withDefault(Schema.Literal("active", "completed", "cancelled", "waived"), () => "active" as const),
  required: withDefault(Schema.Boolean, () => true),
  /** createdAt (or dueBasisAt) plus dueDays when omitted and dueDays is given; no due date otherwise. */
  dueDate: Schema.optional(Schema.NullOr(Timestamp)),
  dueDateOverridden: withDefault(Schema.Boolean, () => false),
  needsReview: withDefault(Schema.Boolean, () => false),
  /** A due date counted in days from its basis. */
  dueDays: Schema.optional(Days),
  /** What dueDays counts from (with dueDays only): the assignment (default) or the day the person took on the duty. */
  dueBasis: Schema.optional(Schema.Literal("assignment", "duty")),
  /** When the basis happened; createdAt when omitted. */
  dueBasisAt: Schema.optional(Timestamp),
  /** Retraining obligations only: whether completing it counts as the next scheduled retake (false when omitted). */
  retrainingResetsClock: Schema.optional(Schema.Boolean),
  reason: withDefault(Schema.NullOr(Schema.String), () => null),
  /** Why it was cancelled or waived. */
  endReason: Schema.optional(Schema.String),
  assignedBy: Schema.optional(Key),
  endedBy: Schema.optional(Key),
  createdAt: Schema.optional(Timestamp),
  /** Completed, cancelled and waived obligations only; import time when omitted. */
  endedAt: Schema.optional(Timestamp)
})
export type FixtureObligation = typeof FixtureObligation.Type

const FixturePopQuizRecipient = Schema.Struct({
  person: Key,
  status: withDefault(Schema.Literal("not_started", "STARTED", "COMPLETED"), () => "not_started" as const),
  /** COMPLETED only, and then required. */
  score: Schema.optional(Fraction),
  /** COMPLETED only; import time when omitted. */
  completedAt: Schema.optional(Timestamp),
  /**
   * The person's questions. Given, or the recipient has STARTED or COMPLETED
   * (then a small set about the content is written), they are READY;
   * otherwise PENDING with a "pop-quiz.prepare" job queued.
   */
  questions: Schema.optional(Questions)
})

export const FixturePopQuiz = Schema.Struct({
  key: Key,
  content: Key,
  /** "Pop quiz: <content title>" when omitted. */
  title: Schema.optional(Text),
  prompt: Schema.optional(Schema.String),
  difficulty: withDefault(Difficulty, () => "MODERATE" as const),
  dueDate: Timestamp,
  /** An organization admin's key; omitted when the system sent it. */
  sentBy: Schema.optional(Key),
  announcementId: Schema.optional(Schema.String),
  createdAt: Schema.optional(Timestamp),
  recipients: withDefault(Schema.Array(FixturePopQuizRecipient), () => [])
})
export type FixturePopQuiz = typeof FixturePopQuiz.Type

/** The training sections as fields of the fixture (schema.ts): each a list, empty when omitted. */
export const trainingFields = {
  reviews: withDefault(Schema.Array(FixtureMemberReview), () => []),
  retrainingPolicies: withDefault(Schema.Array(FixtureRetrainingPolicy), () => []),
  mastery: withDefault(Schema.Array(FixtureMastery), () => []),
  enrollments: withDefault(Schema.Array(FixtureEnrollment), () => []),
  obligations: withDefault(Schema.Array(FixtureObligation), () => []),
  popQuizzes: withDefault(Schema.Array(FixturePopQuiz), () => [])
}
