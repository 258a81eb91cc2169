import { Effect, Layer } from "effect"
import { type ExtractedItem, type ExtractionInput, KnowledgeExtractor } from "@tks/adapters/extraction/port"

/**
 * INTERIM, until the local NLP adapter of packages/adapters lands: the lead
 * replaces `KnowledgeExtractorLive` with it (and with the LLM adapter when
 * configured). What it does meanwhile, deterministically and offline: each
 * chapter with a headline is a topic (category operations); each of its
 * sentences that states a rule ("must", "should", "never", "always") is a
 * policy item, its first sentence otherwise a fact; quotes are the sentences
 * verbatim.
 */

const SENTENCE = /[^.!?\n]+[.!?]/g
const RULE = /\b(must|should|never|always|required)\b/i

const nameOf = (sentence: string) => sentence.trim().split(/\s+/).slice(0, 8).join(" ").replace(/[.!?,;:]+$/, "").slice(0, 200)

const itemsOf = (text: string): ReadonlyArray<ExtractedItem> => {
  const sentences = [...text.matchAll(SENTENCE)].map((match) => match[0].trim()).filter((s) => s.length >= 12 && s.length <= 4000)
  const rules = sentences.filter((sentence) => RULE.test(sentence)).slice(0, 20)
  const chosen = rules.length > 0 ? rules : sentences.slice(0, 1)
  return chosen.map((sentence) => ({
    kind: RULE.test(sentence) ? "policy" : "fact",
    name: nameOf(sentence),
    body: sentence,
    quote: sentence,
    confidence: 0.5,
    children: []
  }))
}

const extract = (input: ExtractionInput) => ({
  title: null,
  summary: null,
  topics: input.chapters
    .filter((chapter) => chapter.headline !== null && chapter.headline.trim() !== "")
    .map((chapter) => ({
      name: chapter.headline!.trim().slice(0, 200),
      description: null,
      category: "operations" as const,
      items: itemsOf(chapter.text)
    }))
    .filter((topic) => topic.items.length > 0)
})

export const KnowledgeExtractorLive = Layer.succeed(KnowledgeExtractor, {
  name: "interim-structural",
  extract: (input) => Effect.sync(() => extract(input))
})
