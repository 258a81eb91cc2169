import { isStructuralHeading, type Outline, outlineOf } from "./outline.js"
import type { ExtractedItem, ExtractedTopic, Extraction } from "./port.js"

/**
 * The model's topics held to the outline's rule (outline.ts), whatever the
 * model did: a topic named after a structural heading (a label such as
 * "Steps", a number alone, or a heading over nothing but a numbered
 * procedure), or with a label for a name, is not a topic. Each of its items
 * joins the topic of the section its quote is in (else the topic the heading
 * belongs to, else the topic before it, else the document's). Everything else
 * keeps the model's order; a topic that took items in is put back in document
 * order, by where its items' quotes are.
 */

interface Draft {
  topic: ExtractedTopic
  items: Array<ExtractedItem>
  merged: boolean
}

/** Where an item's quote is in the document, or null. */
const placeOfQuote = (markdown: string, item: ExtractedItem): number | null => {
  const at = markdown.indexOf(item.quote.trim())
  return at === -1 ? null : at
}

const targetOf = (outline: Outline, markdown: string, item: ExtractedItem, fallback: string, documentName: string) => {
  const at = placeOfQuote(markdown, item)
  if (at === null) return fallback
  return outline.sectionAt(at)?.topic ?? documentName
}

/** Items in document order: each by where its quote is; an item whose quote is not found stays after the one before it. */
const inDocumentOrder = (markdown: string, items: ReadonlyArray<ExtractedItem>): Array<ExtractedItem> => {
  let last = -1
  const placed = items.map((item, index) => {
    last = placeOfQuote(markdown, item) ?? last
    return { item, at: last, index }
  })
  return placed.sort((a, b) => a.at - b.at || a.index - b.index).map(({ item }) => item)
}

export const placeTopics = (extraction: Extraction, markdown: string, documentName: string): Extraction => {
  const outline = outlineOf(markdown, documentName)
  const drafts = new Map<string, Draft>()
  const draftFor = (name: string, like: ExtractedTopic): Draft => {
    const key = name.toLowerCase()
    const known = drafts.get(key)
    if (known !== undefined) return known
    const created: Draft = { topic: { ...like, name, description: null, items: [] }, items: [], merged: false }
    drafts.set(key, created)
    return created
  }

  let previous: string | null = null
  for (const topic of extraction.topics) {
    const section = outline.sectionNamed(topic.name)
    const isTopic = section === undefined ? !isStructuralHeading(topic.name) : section.role === "topic"
    if (isTopic) {
      const draft = draftFor(topic.name, topic)
      draft.topic = { ...draft.topic, description: draft.topic.description ?? topic.description }
      draft.merged ||= draft.items.length > 0
      draft.items.push(...topic.items)
      previous = topic.name
      continue
    }
    const fallback = section?.topic ?? previous ?? documentName
    for (const item of topic.items) {
      const draft = draftFor(targetOf(outline, markdown, item, fallback, documentName), topic)
      draft.merged = true
      draft.items.push(item)
    }
  }

  return {
    ...extraction,
    topics: [...drafts.values()].map((draft) => ({
      ...draft.topic,
      items: draft.merged ? inDocumentOrder(markdown, draft.items) : draft.items
    }))
  }
}
