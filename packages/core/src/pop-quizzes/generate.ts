import { Effect } from "effect"
import {
  type QuestionChapter,
  QuestionGenerationFailed,
  type QuestionGenerator,
  type QuestionInput,
  type QuestionItem
} from "@tks/adapters/questions/port"

/** The text and knowledge a pop quiz asks about: one content record's (material.ts). */
export interface QuizMaterialText {
  readonly title: string
  readonly chapters: ReadonlyArray<QuestionChapter>
  readonly items: ReadonlyArray<QuestionItem>
}

const nothingToAsk = (material: QuizMaterialText): boolean =>
  material.chapters.every((chapter) => chapter.text.trim() === "") && material.items.length === 0

/**
 * One person's questions on `material`, from `generator` (a pop-quiz
 * recipient's, and the send's check that questions can be written).
 * Material with no text and no item has nothing to ask about: a failure
 * with that reason whichever generator is configured (an LLM would
 * otherwise make questions up).
 */
export const generateQuestions = (
  generator: QuestionGenerator["Type"],
  material: QuizMaterialText,
  ask: Pick<QuestionInput, "difficulty" | "count" | "seed">
) =>
  nothingToAsk(material)
    ? Effect.fail(new QuestionGenerationFailed({ reason: "there is nothing to ask about (no text, chapters or knowledge)" }))
    : generator.generate({ title: material.title, chapters: material.chapters, items: material.items, ...ask })
