import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import { EvidencePlaces } from "../src/knowledge/evidence-places.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { importedOnce } from "./support/access.js"

const body = "## One\n\nFirst chapter text.\n\n## Two\n\nSecond chapter text."
const at = (quote: string): [number, number] => [body.indexOf(quote), body.indexOf(quote) + quote.length]

/**
 * Evidence placed for citing: in the chapter it names, else in the chapter
 * whose range holds it; its range told relative to that chapter only when
 * the chapter holds all of it.
 */
const cited: OrgFixtureInput = {
  organization: { name: "Cited" },
  people: [
    { key: "eve", name: "Eve Admin", email: "eve@cited.test", role: "admin" },
    { key: "val", name: "Val Viewer", email: "val@cited.test", role: "viewer" }
  ],
  content: [
    {
      key: "doc",
      title: "Two chapters",
      body,
      chapters: [{ headline: "One", text: "First chapter text." }, { headline: "Two", text: "Second chapter text." }]
    },
    { key: "secret", title: "Admins only", visibility: "admins", chapters: [{ headline: null, text: "Hidden words." }] }
  ],
  spaces: [{
    key: "space",
    category: "operations",
    name: "Space",
    topics: [{
      key: "topic",
      name: "Topic",
      items: [
        {
          key: "placed",
          name: "Placed",
          kind: "fact",
          evidence: [
            // No chapter named: the chapter whose range holds the quote.
            { content: "doc", quote: "Second chapter", chars: at("Second chapter"), confidence: 0.9 },
            // Across both chapters: the record only.
            { content: "doc", quote: "text.\n\n## Two", chars: at("text.\n\n## Two"), confidence: 0.8 },
            // A chapter named whose range does not hold the quote: the chapter, without a range.
            { content: "doc", quote: "First", chars: at("First"), chapter: 2, confidence: 0.7 },
            { content: "secret", quote: "Hidden", chars: [0, 6], chapter: 1, confidence: 0.6 }
          ]
        }
      ]
    }]
  }]
}

const TestLayer = Layer.mergeAll(FixtureImporter.Default, EvidencePlaces.Default).pipe(Layer.provideMerge(TestDatabaseLive))
const setup = importedOnce({ cited })

layer(TestLayer)("evidence places for citations", (it) => {
  it.effect("a quote's range is told in its chapter's text when the chapter holds it all, and left out otherwise", () =>
    Effect.gen(function*() {
      const { cited } = yield* setup
      const places = yield* EvidencePlaces
      const found = yield* places.ofItems(cited.access("eve", policies.content.text), [cited.ids.items.placed!], 10)
      expect(found.map((place) => [place.quote, place.chapter?.sequence ?? null, place.chapterRange])).toEqual([
        ["Second chapter", 2, { start: 0, end: 14 }],
        ["text.\n\n## Two", null, null],
        ["First", 2, null],
        ["Hidden", 1, { start: 0, end: 6 }]
      ])
    }))

  it.effect("evidence from content the caller cannot read is left out, and at most `limit` places come back", () =>
    Effect.gen(function*() {
      const { cited } = yield* setup
      const places = yield* EvidencePlaces
      const access = cited.access("val", policies.content.text)
      const found = yield* places.ofItems(access, [cited.ids.items.placed!], 10)
      expect(found.map((place) => place.content.title)).toEqual(["Two chapters", "Two chapters", "Two chapters"])
      expect(yield* places.ofItems(access, [cited.ids.items.placed!], 2)).toHaveLength(2)
      expect(yield* places.ofItems(access, [], 10)).toEqual([])
    }))
})
