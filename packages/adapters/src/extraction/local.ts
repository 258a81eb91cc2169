import { Effect, Layer, Schema } from "effect"
import { type CategoryScores, chooseCategory, scoreCategories } from "./categories.js"
import { type Candidate, chapterItems } from "./chapter-items.js"
import { documentNames, type Outline, outlineOf } from "./outline.js"
import { clip, headingName } from "./plain-text.js"
import {
  type ExtractedItem,
  Extraction,
  ExtractionFailed,
  type ExtractionInput,
  KnowledgeExtractor
} from "./port.js"
import { summaryOf } from "./summary.js"

/**
 * The local extractor: offline and deterministic (same input, same output),
 * from the document's structure (chapters, lists) and its sentences (split
 * and tagged by compromise). Each chapter with a headline is a topic, unless
 * its heading is structural (outline.ts): then its knowledge joins the
 * enclosing topic's. Text before the first heading, or a document without
 * headings, is a topic named after the document. Topics and their items come
 * in document order.
 */
const itemsPerTopic = 12
/**
 * Sentences compromise tags per document (about 0.5 ms each). A chapter may
 * use its share by length, at least a few; past the budget sentences are read
 * by patterns alone, so a 500,000-character document stays within seconds.
 */
const tagBudget = 1_000
const tagsPerChapter = { least: 4, most: 60 }

interface Range {
  readonly start: number
  readonly end: number
  readonly headline: string | null
}

/** The document's own sections, when the pipeline gave no chapters. */
const headingRanges = (markdown: string, outline: Outline): Array<Range> => {
  const first = outline.sections[0]?.start ?? markdown.length
  return [
    ...(first > 0 ? [{ start: 0, end: first, headline: null }] : []),
    ...outline.sections.map((section) => ({ start: section.start, end: section.end, headline: section.heading }))
  ]
}

/** The pipeline's chapters as ranges; a chapter whose range does not fit the markdown is found by its text. */
const rangesOf = (input: ExtractionInput, outline: Outline): Array<Range> => {
  const { markdown } = input
  if (input.chapters.length === 0) return headingRanges(markdown, outline)
  return [...input.chapters].sort((a, b) => a.sequence - b.sequence).flatMap((chapter) => {
    const fits = Number.isInteger(chapter.start) && Number.isInteger(chapter.end) && chapter.start >= 0 &&
      chapter.start <= chapter.end && chapter.end <= markdown.length
    if (fits) return [{ start: chapter.start, end: chapter.end, headline: chapter.headline }]
    const at = chapter.text.trim() === "" ? -1 : markdown.indexOf(chapter.text)
    return at === -1 ? [] : [{ start: at, end: at + chapter.text.length, headline: chapter.headline }]
  })
}

interface TopicDraft {
  readonly name: string
  description: string | null
  readonly candidates: Array<Candidate>
  readonly scores: CategoryScores
  words: number
}

/** The best items, in document order, each name said once per topic. */
const select = (candidates: ReadonlyArray<Candidate>, limit: number): Array<ExtractedItem> => {
  const seen = new Set<string>()
  const unique = [...candidates]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((candidate) => {
      const key = (candidate.body ?? candidate.quote).toLowerCase()
      if (candidate.name.trim() === "" || candidate.quote.trim() === "" || seen.has(key)) return false
      seen.add(key)
      return true
    })
    .slice(0, limit)
    .sort((a, b) => a.order - b.order)
  const names = new Map<string, number>()
  return unique.map((candidate) => {
    const name = clip(candidate.name, 190)
    const count = (names.get(name.toLowerCase()) ?? 0) + 1
    names.set(name.toLowerCase(), count)
    return {
      kind: candidate.kind,
      name: count === 1 ? name : `${name} (${count})`,
      body: candidate.body,
      quote: candidate.quote,
      confidence: candidate.score,
      children: select(candidate.children, Number.MAX_SAFE_INTEGER)
    }
  })
}

const sameDocument = (input: ExtractionInput) =>
  Effect.try({
    try: () => {
      const names = documentNames(input.markdown, input.title)
      return { ...names, outline: outlineOf(input.markdown, names.documentName) }
    },
    catch: (error) => new ExtractionFailed({ reason: `local extraction failed: ${String(error)}` })
  })

/**
 * Where a range's knowledge goes: the topic of its heading's section, and the
 * name a numbered list without a lead-in takes (a procedure's own heading,
 * else that topic's name).
 */
const placeOf = (outline: Outline, range: Range, documentName: string) => {
  const headline = range.headline === null ? "" : headingName(range.headline)
  if (headline === "") return { topicName: documentName, procedureName: documentName, headline: null }
  const section = outline.sectionOf(range.start, headline)
  const topicName = section?.topic ?? headline
  return { topicName, procedureName: section?.role === "procedure" ? section.name : topicName, headline }
}

export const extractLocally = Effect.fn("KnowledgeExtractor.local")(function*(input: ExtractionInput) {
  const { documentName, outline, title } = yield* sameDocument(input)
  const documentScores: CategoryScores = new Map()
  let documentWords = scoreCategories(documentName, documentScores, 3)
  const topics = new Map<string, TopicDraft>()
  const prose: Array<Parameters<typeof summaryOf>[0][number]> = []

  const ranges = rangesOf(input, outline)
  const total = Math.max(1, ranges.reduce((sum, range) => sum + range.end - range.start, 0))
  let budget = tagBudget
  for (const range of ranges) {
    const share = Math.ceil(tagBudget * (range.end - range.start) / total)
    const tagLimit = Math.min(budget, Math.max(tagsPerChapter.least, Math.min(tagsPerChapter.most, share)))
    const { headline, procedureName, topicName: name } = placeOf(outline, range, documentName)
    const found = yield* Effect.try({
      try: () => chapterItems(input.markdown, range, { headline, procedureName, documentName, tagLimit }),
      catch: (error) => new ExtractionFailed({ reason: `local extraction failed: ${String(error)}` })
    })
    budget -= found.tagged
    prose.push(...found.prose)
    const key = name.toLowerCase()
    const topic: TopicDraft = topics.get(key) ?? { name, description: null, candidates: [], scores: new Map(), words: 0 }
    topics.set(key, topic)
    topic.description ??= found.firstSentence
    topic.candidates.push(...found.candidates)
    topic.words += scoreCategories(name, topic.scores, 3)
    topic.words += scoreCategories(input.markdown.slice(range.start, range.end), topic.scores)
    // A huge document is many chapters: let other fibers (HTTP requests) run between them.
    yield* Effect.yieldNow()
  }

  for (const topic of topics.values()) {
    for (const [slug, score] of topic.scores) documentScores.set(slug, (documentScores.get(slug) ?? 0) + score)
    documentWords += topic.words
  }
  const document = { scores: documentScores, words: documentWords }
  const extraction = {
    title,
    summary: summaryOf(prose),
    topics: [...topics.values()]
      .filter((topic) => topic.candidates.length > 0 || topic.description !== null)
      .map((topic) => ({
        name: topic.name,
        description: topic.description,
        category: chooseCategory(topic, document),
        items: select(topic.candidates, itemsPerTopic)
      }))
  }
  return yield* Schema.decodeUnknown(Extraction)(extraction).pipe(
    Effect.mapError((error) => new ExtractionFailed({ reason: `local extraction made an invalid result: ${error.message}` }))
  )
})

export const LocalKnowledgeExtractor: Layer.Layer<KnowledgeExtractor> = Layer.succeed(
  KnowledgeExtractor,
  KnowledgeExtractor.of({ name: "local", extract: extractLocally })
)
