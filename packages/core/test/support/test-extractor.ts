import { Effect, Layer } from "effect"
import { type ExtractedItem, ExtractionFailed, type ExtractionInput, KnowledgeExtractor } from "@tks/adapters/extraction/port"
import { categories, type CategorySlug } from "@tks/domain/knowledge"

/**
 * A small deterministic stand-in for the knowledge extractor, so tests know
 * exactly what a document yields:
 * - title: the first H1 (the first chapter's headline when the text starts
 *   with `# `); summary: the first sentence of the first chapter;
 * - each chapter with a headline is a topic of that name, filed under the
 *   category named by a `Category: <slug>` line in it (else operations);
 * - each `- Name: sentence` bullet is an item (policy when it says "must",
 *   process when its name starts with "How to", else fact), quoting the
 *   bullet's text with runs of whitespace made single (a body with doubled
 *   spaces makes the pipeline search ignoring whitespace); an indented
 *   bullet is a child of the bullet above it;
 * - a bullet containing `[unfindable]` quotes words the document does not
 *   have, so its item must be dropped;
 * - a document with a line `Extraction fails: <reason>` fails with that
 *   reason (ExtractionFailed), every time.
 */

const slugs = new Set<string>(categories.map((category) => category.slug))
const isCategory = (slug: string): slug is CategorySlug => slugs.has(slug)

const itemOf = (text: string): ExtractedItem => {
  const colon = text.indexOf(":")
  const name = (colon > 0 ? text.slice(0, colon) : text.split(/\s+/).slice(0, 6).join(" ")).trim().slice(0, 200)
  const quote = text.includes("[unfindable]") ? `Words this document never says about ${name}` : text.replace(/\s+/g, " ").trim()
  return {
    kind: /\bmust\b/i.test(text) ? "policy" : /^how to\b/i.test(name) ? "process" : "fact",
    name,
    body: colon > 0 ? text.slice(colon + 1).trim() : null,
    quote,
    confidence: 0.8,
    children: []
  }
}

export const extractForTests = (input: ExtractionInput) => {
  const first = input.chapters[0]
  const h1 = /^# +(.+)$/m.exec(input.markdown.slice(0, first?.start ?? input.markdown.length))
  const topics = input.chapters.filter((chapter) => chapter.headline !== null).map((chapter) => {
    const category = /^Category: *([a-z-]+) *$/m.exec(chapter.text)?.[1] ?? "operations"
    const items: Array<ExtractedItem> = []
    for (const line of chapter.text.split("\n")) {
      const top = /^- +(.+)$/.exec(line)
      const child = /^ {2,}- +(.+)$/.exec(line)
      if (top !== null) items.push(itemOf(top[1]!))
      const parent = items[items.length - 1]
      if (child !== null && parent !== undefined) {
        items[items.length - 1] = { ...parent, children: [...parent.children, itemOf(child[1]!)] }
      }
    }
    return {
      name: chapter.headline!,
      description: `What the document says about ${chapter.headline}.`,
      category: isCategory(category) ? category : "operations",
      items
    }
  })
  return {
    title: h1?.[1]?.trim() ?? null,
    summary: first === undefined ? null : (/^[^.!?\n]+[.!?]/.exec(first.text)?.[0] ?? null),
    topics
  }
}

export const TestExtractorLive = Layer.succeed(KnowledgeExtractor, {
  name: "test",
  extract: (input) => {
    const failure = /^Extraction fails: *(.+)$/m.exec(input.markdown)
    return failure === null ? Effect.sync(() => extractForTests(input)) : Effect.fail(new ExtractionFailed({ reason: failure[1]!.trim() }))
  }
})
