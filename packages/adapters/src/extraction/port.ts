import { Context, type Effect, Schema } from "effect"
import { CategorySlug, ItemKind } from "@tks/domain/knowledge"

/**
 * The knowledge-extraction port: a document's text in, topics and items out.
 * Both adapters (the local NLP one and the LLM one) return `Extraction`,
 * decoded with this one Schema, so the pipeline never sees an unchecked shape.
 * Order is part of the answer: topics, a topic's items and an item's children
 * come in the order the document states them, and the pipeline numbers each
 * item among its siblings by it (its `position`). A structural heading
 * ("Steps", "Overview", a number alone) is never a topic (outline.ts).
 */

/** One item and the verbatim sentence of the document it rests on. */
export interface ExtractedItem {
  readonly kind: ItemKind
  readonly name: string
  readonly body: string | null
  /** Verbatim text of the document; the pipeline finds it to make the evidence's character range (unfound quotes are dropped). */
  readonly quote: string
  readonly confidence: number
  readonly children: ReadonlyArray<ExtractedItem>
}
interface ExtractedItemEncoded {
  readonly kind: ItemKind
  readonly name: string
  readonly body?: string | null | undefined
  readonly quote: string
  readonly confidence: number
  readonly children?: ReadonlyArray<ExtractedItemEncoded> | undefined
}

const Name = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(200))

// The identifier names the recursive item in JSON Schema ($defs), which the LLM adapter sends as the answer's shape.
export const ExtractedItem: Schema.Schema<ExtractedItem, ExtractedItemEncoded> = Schema.Struct({
  kind: ItemKind,
  name: Name,
  body: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(4000))), { default: () => null }),
  quote: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4000)),
  confidence: Schema.Number.pipe(Schema.between(0, 1)),
  children: Schema.optionalWith(
    Schema.Array(Schema.suspend((): Schema.Schema<ExtractedItem, ExtractedItemEncoded> => ExtractedItem)),
    { default: () => [] }
  )
}).annotations({ identifier: "ExtractedItem" })

export const ExtractedTopic = Schema.Struct({
  name: Name,
  description: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(4000))), { default: () => null }),
  category: CategorySlug,
  items: Schema.Array(ExtractedItem)
})
export type ExtractedTopic = typeof ExtractedTopic.Type

export const Extraction = Schema.Struct({
  /** A better title than the one the content has, when the text names one (an H1, a PDF title). */
  title: Schema.optionalWith(Schema.NullOr(Name), { default: () => null }),
  summary: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000))), { default: () => null }),
  topics: Schema.Array(ExtractedTopic)
})
export type Extraction = typeof Extraction.Type

/** A chapter as the pipeline made it: its range in `markdown` (UTF-16 offsets, end exclusive). */
export interface ExtractionChapter {
  readonly sequence: number
  readonly headline: string | null
  readonly text: string
  readonly start: number
  readonly end: number
}

export interface ExtractionInput {
  readonly title: string
  readonly markdown: string
  readonly chapters: ReadonlyArray<ExtractionChapter>
}

export class ExtractionFailed extends Schema.TaggedError<ExtractionFailed>()("ExtractionFailed", {
  reason: Schema.String
}) {}

export class KnowledgeExtractor extends Context.Tag("@tks/adapters/KnowledgeExtractor")<KnowledgeExtractor, {
  /** Which adapter answers ("local" or "llm:<model>"), for logs. */
  readonly name: string
  readonly extract: (input: ExtractionInput) => Effect.Effect<Extraction, ExtractionFailed>
}>() {}
