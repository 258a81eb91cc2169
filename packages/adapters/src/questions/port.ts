import { Context, type Effect, Schema } from "effect"
import type { ItemKind } from "@tks/domain/knowledge"
import type { QuizDifficulty, StoredQuestion } from "@tks/domain/quiz"

/**
 * The question-generation port: a lesson's or a content record's text and
 * knowledge in, numbered quiz questions (the stored shape, with correct
 * answers and explanations) out. The local adapter is offline and
 * deterministic; the LLM adapter is used when one is configured.
 */

/** A chapter of the content, in reading order. */
export interface QuestionChapter {
  readonly headline: string | null
  readonly text: string
}

/** An item the content is evidence for; `topicId` is what a question about it tests. */
export interface QuestionItem {
  readonly name: string
  readonly kind: ItemKind
  readonly body: string | null
  readonly topicId: string
}

export interface QuestionInput {
  readonly title: string
  readonly chapters: ReadonlyArray<QuestionChapter>
  readonly items: ReadonlyArray<QuestionItem>
  readonly difficulty: QuizDifficulty
  /** How many questions to ask; fewer when the content has less to ask about, never none. */
  readonly count: number
  /** The same input and seed give the same questions (local adapter). */
  readonly seed: string
}

export class QuestionGenerationFailed extends Schema.TaggedError<QuestionGenerationFailed>()("QuestionGenerationFailed", {
  reason: Schema.String
}) {}

export class QuestionGenerator extends Context.Tag("@tks/adapters/QuestionGenerator")<QuestionGenerator, {
  /** Which adapter answers ("local" or "llm:<model>"), kept with the questions. */
  readonly name: string
  readonly generate: (input: QuestionInput) => Effect.Effect<ReadonlyArray<StoredQuestion>, QuestionGenerationFailed>
}>() {}
