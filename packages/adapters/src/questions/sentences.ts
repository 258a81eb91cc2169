import { normalizeAnswer } from "@tks/domain/quiz"
import { blocksOf } from "../extraction/markdown-blocks.js"
import { plainText } from "../extraction/plain-text.js"
import { featuresOf, sentencesOf } from "../extraction/sentences.js"
import type { QuestionInput, QuestionItem } from "./port.js"
import { findWords } from "./terms.js"

/**
 * The sentences worth asking about, ranked: the content's prose sentences
 * (cut and read with the extraction helpers) and the items' bodies. A
 * sentence stating a rule, a number, a date or a definition, or naming an
 * item, ranks high; questions, lead-ins ("Do this:") and fragments are left
 * out.
 */
export interface QuizSentence {
  readonly text: string
  readonly headline: string | null
  /** The topic a question on it tests: the item it names or comes from, or the item it overlaps most; else null. */
  readonly topicId: string | null
  readonly score: number
}

/** Sentences ranked per lesson: bounds the tagging work on a huge text. */
const consideredSentences = 80
const words = { least: 5, most: 45 }

const contentWords = (text: string) => new Set(normalizeAnswer(text).match(/[\p{L}\p{N}]{4,}/gu) ?? [])

/** The item a sentence is most about: one it names, else the one whose body shares most of its words (at least half). */
const topicOf = (text: string, items: ReadonlyArray<QuestionItem>): string | null => {
  const named = items.find((item) => findWords(text, item.name) !== null)
  if (named !== undefined) return named.topicId
  const mine = contentWords(text)
  let best: { topicId: string; overlap: number } | null = null
  for (const item of items) {
    const theirs = contentWords(`${item.name} ${item.body ?? ""}`)
    let shared = 0
    for (const word of mine) if (theirs.has(word)) shared++
    const overlap = mine.size === 0 ? 0 : shared / mine.size
    if (overlap >= 0.5 && (best === null || overlap > best.overlap)) best = { topicId: item.topicId, overlap }
  }
  if (best !== null) return best.topicId
  const topics = new Set(items.map((item) => item.topicId))
  return topics.size === 1 ? [...topics][0]! : null
}

const scoreOf = (text: string, items: ReadonlyArray<QuestionItem>, position: number) => {
  const features = featuresOf(text)
  return (features.normative ? 0.3 : 0) + (features.number ? 0.2 : 0) + (features.definition !== null ? 0.2 : 0) +
    (features.date ? 0.1 : 0) + (features.money ? 0.1 : 0) + (features.properNoun ? 0.05 : 0) +
    (items.some((item) => findWords(text, item.name) !== null) ? 0.3 : 0) + 0.1 / (1 + position / 10)
}

export const quizSentences = (input: QuestionInput): Array<QuizSentence> => {
  const found: Array<{ text: string; headline: string | null; fromItem: QuestionItem | null }> = []
  for (const chapter of input.chapters) {
    for (const block of blocksOf(chapter.text).filter((block) => block.kind !== "heading")) {
      for (const sentence of sentencesOf(chapter.text, block)) {
        found.push({ text: sentence.plain, headline: chapter.headline === null ? null : plainText(chapter.headline), fromItem: null })
      }
    }
  }
  for (const item of input.items) {
    if (item.body !== null) found.push({ text: plainText(item.body), headline: item.name, fromItem: item })
  }
  const seen = new Set<string>()
  return found
    .filter(({ text }) => {
      const key = normalizeAnswer(text)
      const count = text.split(/\s+/).length
      const fragment = /[:?]["')\]]*$/.test(text) || count < words.least || count > words.most
      if (fragment || seen.has(key)) return false
      seen.add(key)
      return true
    })
    .map(({ fromItem, headline, text }, position) => ({
      text,
      headline,
      topicId: fromItem?.topicId ?? topicOf(text, input.items),
      score: scoreOf(text, input.items, position)
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, consideredSentences)
}
