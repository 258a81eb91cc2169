import { Effect, Layer, Schema } from "effect"
import { type CategoryScores, chooseCategory, scoreCategories } from "./categories.js"
import { type Candidate, chapterItems } from "./chapter-items.js"
import { blocksOf, firstH1 } from "./markdown-blocks.js"
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
 * and tagged by compromise). Each chapter with a headline is a topic; text
 * before the first heading, or a document without headings, is a topic
 * named after the document.
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

const lineStart = (markdown: string, at: number) => markdown.lastIndexOf("\n", at - 1) + 1

/** The document's own sections, when the pipeline gave no chapters. */
const headingRanges = (markdown: string): Array<Range> => {
  const headings = blocksOf(markdown).filter((block) => block.kind === "heading")
  const starts = headings.map((heading) => lineStart(markdown, heading.start))
  const ranges: Array<Range> = []
  if ((starts[0] ?? markdown.length) > 0) ranges.push({ start: 0, end: starts[0] ?? markdown.length, headline: null })
  headings.forEach((heading, index) => {
    ranges.push({
      start: starts[index]!,
      end: starts[index + 1] ?? markdown.length,
      headline: markdown.slice(heading.start, heading.end)
    })
  })
  return ranges
}

/** The pipeline's chapters as ranges; a chapter whose range does not fit the markdown is found by its text. */
const rangesOf = (input: ExtractionInput): Array<Range> => {
  const { markdown } = input
  if (input.chapters.length === 0) return headingRanges(markdown)
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
      const h1 = firstH1(input.markdown, blocksOf(input.markdown))
      const title = h1 === null ? null : headingName(h1) || null
      return { title, documentName: title ?? (headingName(input.title) || "Document") }
    },
    catch: (error) => new ExtractionFailed({ reason: `local extraction failed: ${String(error)}` })
  })

export const extractLocally = Effect.fn("KnowledgeExtractor.local")(function*(input: ExtractionInput) {
  const { documentName, title } = yield* sameDocument(input)
  const documentScores: CategoryScores = new Map()
  let documentWords = scoreCategories(documentName, documentScores, 3)
  const topics = new Map<string, TopicDraft>()
  const prose: Array<Parameters<typeof summaryOf>[0][number]> = []

  const ranges = rangesOf(input)
  const total = Math.max(1, ranges.reduce((sum, range) => sum + range.end - range.start, 0))
  let budget = tagBudget
  for (const range of ranges) {
    const share = Math.ceil(tagBudget * (range.end - range.start) / total)
    const tagLimit = Math.min(budget, Math.max(tagsPerChapter.least, Math.min(tagsPerChapter.most, share)))
    const headline = range.headline === null ? "" : headingName(range.headline)
    const name = headline === "" ? documentName : headline
    const found = yield* Effect.try({
      try: () => chapterItems(input.markdown, range, {
          headline: headline === "" ? null : headline,
          topicName: name,
          documentName,
          tagLimit
        }),
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
