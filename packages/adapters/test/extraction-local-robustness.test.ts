import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck, Schema } from "effect"
import { extractLocally } from "@tks/adapters/extraction/local"
import { type ExtractedItem, Extraction } from "@tks/adapters/extraction/port"
import { inputOf } from "./support/extraction-documents.js"

/** The local extractor on markdown it was not written for: odd syntax, CRLF, run-on lines. */
const extract = extractLocally

const itemsOf = (extraction: Extraction): Array<ExtractedItem> => {
  const walk = (items: ReadonlyArray<ExtractedItem>): Array<ExtractedItem> =>
    items.flatMap((item) => [item, ...walk(item.children)])
  return extraction.topics.flatMap((topic) => walk(topic.items))
}

const fragments = [
  "# Title", "## Section two", "### 1.2 Numbered heading ###", "Setext heading", "===", "---", "", "", "   ",
  "Employees must submit receipts within 30 days.", "The budget is $4,500 for 2025.", "A vendor is a company that sells to us.",
  "1. Open the portal.", "2) Click **Save**.", "   1. Nested step with `code`.", "- Lock your screen.", "* Never share passwords.",
  "- [ ] Task item must be done", "> Quoted rule: staff must wear badges.", "> continued quote line.",
  "```", "const x = 1 // must not", "~~~", "| a | b |", "|---|---|", "<div>html must go</div>",
  "See [the guide](https://example.com/a_(b).html) for details.", "Émile's café opens at 9:00 on Monday. 😀 Really?",
  "Wrapped sentence that goes on", "onto the next line and must end here.", "\tTabbed line with a number 7.",
  "**Bold lead.** Then some text.", "#", "#hashtag is not a heading", "Dr. Smith, e.g. the U.S. lead, approved it.",
  "x".repeat(300), "Rule: " + "must ".repeat(40)
]

describe("local knowledge extraction: any markdown", () => {
  it.effect("never fails; every quote is verbatim, every name non-empty, the result decodes again", () =>
    Effect.gen(function*() {
      const documents = FastCheck.sample(
        FastCheck.tuple(
          FastCheck.array(FastCheck.constantFrom(...fragments), { maxLength: 40 }),
          FastCheck.constantFrom("\n", "\r\n")
        ),
        { numRuns: 150, seed: 6 }
      )
      let items = 0
      for (const [lines, newline] of documents) {
        const markdown = lines.join(newline)
        for (const input of [inputOf(markdown), { title: "Doc", markdown, chapters: [] }]) {
          const result = yield* extract(input)
          items += itemsOf(result).length
          for (const item of itemsOf(result)) {
            expect(markdown.includes(item.quote), JSON.stringify({ markdown, quote: item.quote })).toBe(true)
            expect(item.name.trim()).not.toBe("")
          }
          expect(yield* Schema.decodeUnknown(Extraction)(yield* Schema.encode(Extraction)(result))).toEqual(result)
        }
      }
      // The documents did give knowledge: the checks above ran on real items.
      expect(items).toBeGreaterThan(300)
    }))

  it.effect("a huge single line (as prose, a list item, a heading) is read without trouble", () =>
    Effect.gen(function*() {
      const line = "**a _b [c](d) ".repeat(15_000)
      for (const markdown of [line, `1. ${line}\n2. Second step.`, `# ${line}\n\nStaff must sign in.`]) {
        const result = yield* extract({ title: "Huge", markdown, chapters: [] })
        for (const item of itemsOf(result)) expect(markdown).toContain(item.quote)
        for (const topic of result.topics) expect(topic.name.length).toBeLessThanOrEqual(200)
      }
    }))
})
