import type { ExtractedItem, Extraction } from "@tks/adapters/extraction/port"
import type { CategorySlug, ItemKind } from "@tks/domain/knowledge"
import { chapterAt } from "./chapters.js"
import { childKey, itemKey, topicSlug } from "./keys.js"
import { locateQuote } from "./locate.js"

/**
 * An extraction turned into what stage 2 writes, pure: topics keyed by
 * (category, slug), items keyed by origin key within their topic (children
 * under their parent's key), each with the evidence found in the body.
 * Duplicates the extractor returned are merged, never written twice; items
 * whose quote is not in the body are dropped with their children. Extractors
 * return items in document order; each item's `position` numbers it among its
 * siblings in that order (a duplicate keeps the place it was first given).
 */

export interface PlannedEvidence {
  readonly start: number
  readonly end: number
  /** `body.slice(start, end)`: the document's own words, even when found ignoring whitespace. */
  readonly quote: string
  readonly confidence: number
  readonly chapterSequence: number | null
}

export interface PlannedItem {
  readonly key: string
  readonly parentKey: string | null
  readonly depth: number
  /** From 1 among the items of the same parent (or the topic's top-level items), in document order. */
  readonly position: number
  readonly kind: ItemKind
  readonly name: string
  readonly body: string | null
  readonly evidence: ReadonlyArray<PlannedEvidence>
}

export interface PlannedTopic {
  readonly category: CategorySlug
  readonly slug: string
  readonly name: string
  readonly description: string | null
  /** Parents before their children. */
  readonly items: ReadonlyArray<PlannedItem>
}

export interface KnowledgePlan {
  readonly topics: ReadonlyArray<PlannedTopic>
  /** Items (with their children) left out because their quote is not in the body. */
  readonly droppedItems: number
}

interface ChapterRange {
  readonly sequence: number
  readonly end: number
}

interface MutableItem {
  key: string
  parentKey: string | null
  depth: number
  position: number
  kind: ItemKind
  name: string
  body: string | null
  evidence: Map<string, PlannedEvidence>
}

interface MutableTopic {
  category: CategorySlug
  slug: string
  name: string
  description: string | null
  items: Map<string, MutableItem>
  /** How many items each parent (by key; "" for the topic) has so far. */
  siblings: Map<string, number>
}

const countItems = (items: ReadonlyArray<ExtractedItem>): number =>
  items.reduce((sum, item) => sum + 1 + countItems(item.children), 0)

export const planKnowledge = (
  extraction: Extraction,
  body: string,
  chapters: ReadonlyArray<ChapterRange>
): KnowledgePlan => {
  const topics = new Map<string, MutableTopic>()
  let dropped = 0
  // Quotes mostly come in document order: search on from the last one found first.
  let cursor = 0

  const addItem = (topic: MutableTopic, item: ExtractedItem, parentKey: string | null, depth: number) => {
    const range = locateQuote(body, item.quote, cursor)
    if (range === null) {
      dropped += 1 + countItems(item.children)
      return
    }
    cursor = range.start
    const key = parentKey === null ? itemKey(item.name) : childKey(parentKey, item.name)
    const existing = topic.items.get(key)
    const nextPosition = () => {
      const position = (topic.siblings.get(parentKey ?? "") ?? 0) + 1
      topic.siblings.set(parentKey ?? "", position)
      return position
    }
    const planned: MutableItem = existing ?? {
      key,
      parentKey,
      depth,
      position: nextPosition(),
      kind: item.kind,
      name: item.name,
      body: item.body,
      evidence: new Map()
    }
    if (planned.body === null) planned.body = item.body
    const locator = `${range.start}-${range.end}`
    const previous = planned.evidence.get(locator)
    if (previous === undefined || previous.confidence < item.confidence) {
      planned.evidence.set(locator, {
        start: range.start,
        end: range.end,
        quote: body.slice(range.start, range.end),
        confidence: item.confidence,
        chapterSequence: chapterAt(chapters, range.start)?.sequence ?? null
      })
    }
    topic.items.set(key, planned)
    for (const child of item.children) addItem(topic, child, key, depth + 1)
  }

  for (const extracted of extraction.topics) {
    const slug = topicSlug(extracted.name)
    const topicKey = `${extracted.category}:${slug}`
    const topic = topics.get(topicKey) ?? {
      category: extracted.category,
      slug,
      name: extracted.name,
      description: extracted.description,
      items: new Map<string, MutableItem>(),
      siblings: new Map<string, number>()
    }
    if (topic.description === null) topic.description = extracted.description
    topics.set(topicKey, topic)
    for (const item of extracted.items) addItem(topic, item, null, 0)
  }

  return {
    droppedItems: dropped,
    topics: [...topics.values()]
      .filter((topic) => topic.items.size > 0)
      .map((topic): PlannedTopic => ({
        category: topic.category,
        slug: topic.slug,
        name: topic.name,
        description: topic.description,
        items: [...topic.items.values()]
          .sort((a, b) => a.depth - b.depth)
          .map((item): PlannedItem => ({ ...item, evidence: [...item.evidence.values()] }))
      }))
  }
}
