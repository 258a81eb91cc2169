import { describe, expect, it } from "@effect/vitest"
import type { Extraction } from "@tks/adapters/extraction/port"
import { childKey, itemKey, spaceAutoKey, spaceName, topicSlug } from "../src/processing/keys.js"
import { charsLocator, locateQuote } from "../src/processing/locate.js"
import { planKnowledge } from "../src/processing/plan.js"

describe("locating a quote", () => {
  const body = "Refunds are paid within\n   14 days. Refunds are paid within 14 days."

  it("finds it verbatim first", () => {
    const range = locateQuote(body, "Refunds are paid within 14 days.")!
    expect(body.slice(range.start, range.end)).toBe("Refunds are paid within 14 days.")
    expect(range.start).toBe(body.lastIndexOf("Refunds"))
  })

  it("finds it across different whitespace when it is not there verbatim", () => {
    const range = locateQuote(body, "paid  within 14\tdays")!
    expect(body.slice(range.start, range.end)).toBe("paid within\n   14 days")
  })

  it("searches on from a position, and from the start when nothing follows it", () => {
    expect(locateQuote(body, "Refunds", 1)!.start).toBe(body.lastIndexOf("Refunds"))
    expect(locateQuote(body, "paid within\n", 30)!.start).toBe(12)
  })

  it("finds nothing for words the body does not have, or for a blank quote", () => {
    expect(locateQuote(body, "Refunds are never paid")).toBeNull()
    expect(locateQuote(body, "  ")).toBeNull()
    expect(locateQuote(body, "(.*)")).toBeNull()
  })

  it("names a range as chars:<start>-<end>", () => {
    expect(charsLocator({ start: 3, end: 17 })).toBe("chars:3-17")
  })
})

describe("natural keys", () => {
  it("a topic's slug is the fixture import's, and never empty", () => {
    expect(topicSlug("Expense Policy & Travel")).toBe("expense-policy-travel")
    // As the import does it (NFKD after lower-casing leaves the accent as its own mark): the same name finds the same topic.
    expect(topicSlug("„Über“")).toBe("u-ber")
    expect(topicSlug("日本語")).toMatch(/^topic-[0-9a-f]{12}$/)
  })

  it("an item's key ignores case, accents, punctuation and spacing; a child's is under its parent's", () => {
    expect(itemKey("  Café   Opening-Hours! ")).toBe(itemKey("cafe opening hours"))
    expect(childKey(itemKey("Refunds"), "By card")).toBe("refunds/by card")
  })

  it("a space's auto key names the category and the audience, teams in order", () => {
    expect(spaceAutoKey("finance", "teams", ["tm_b", "tm_a"])).toBe("finance:teams:tm_a,tm_b")
    expect(spaceAutoKey("finance", "everyone", [])).toBe("finance:everyone:")
    expect(spaceName("Finance", "everyone", [])).toBe("Finance")
    expect(spaceName("Finance", "admins", [])).toBe("Finance (admins)")
    expect(spaceName("Finance", "teams", ["Sales", "Ops"])).toBe("Finance (Ops, Sales)")
  })
})

describe("planning what an extraction writes", () => {
  const body = "## Refunds\n- Window: Refunds within 14 days.\n- Card: Card refunds take 5 days.\n"
  const chapters = [{ sequence: 1, end: body.length }]
  const item = (name: string, quote: string, children: Extraction["topics"][number]["items"] = []) =>
    ({ kind: "fact", name, body: null, quote, confidence: 0.5, children }) as const

  it("merges topics of one slug and items of one key, and keeps each evidence range once", () => {
    const plan = planKnowledge({
      title: null,
      summary: null,
      topics: [
        { name: "Refunds", description: null, category: "finance", items: [item("Window", "Refunds within 14 days.")] },
        { name: "refunds!", description: "Money back.", category: "finance", items: [item("window", "Refunds within 14 days.")] }
      ]
    }, body, chapters)
    expect(plan.topics).toHaveLength(1)
    expect(plan.topics[0]!.description).toBe("Money back.")
    expect(plan.topics[0]!.items).toHaveLength(1)
    expect(plan.topics[0]!.items[0]!.evidence).toHaveLength(1)
  })

  it("drops an item whose quote is not in the body, with its children, and a topic left without items", () => {
    const plan = planKnowledge({
      title: null,
      summary: null,
      topics: [
        { name: "Refunds", description: null, category: "finance", items: [item("Ghost", "Not in the text", [item("Child", "Card refunds take 5 days.")]), item("Card", "Card refunds take 5 days.")] },
        { name: "Empty", description: null, category: "finance", items: [item("Gone", "Nowhere")] }
      ]
    }, body, chapters)
    expect(plan.droppedItems).toBe(3)
    expect(plan.topics.map((t) => t.name)).toEqual(["Refunds"])
    expect(plan.topics[0]!.items.map((i) => i.name)).toEqual(["Card"])
  })

  it("keys a child under its parent and lists parents first, with the body's own words as the quote", () => {
    const plan = planKnowledge({
      title: null,
      summary: null,
      topics: [{ name: "Refunds", description: null, category: "finance", items: [item("Window", "Refunds  within 14 days.", [item("Card", "Card refunds take 5 days.")])] }]
    }, body, chapters)
    const [parent, child] = plan.topics[0]!.items
    expect(parent!.key).toBe("window")
    expect(child!.parentKey).toBe("window")
    expect(child!.key).toBe("window/card")
    const evidence = parent!.evidence[0]!
    expect(body.slice(evidence.start, evidence.end)).toBe(evidence.quote)
    expect(evidence.quote).toBe("Refunds within 14 days.")
    expect(evidence.chapterSequence).toBe(1)
  })

  it("numbers each item among its siblings in the extraction's order, whatever the names; a duplicate keeps its first place", () => {
    const steps = "## Archive\n1. Zip the folder.\n2. Check the checksum.\n3. Move the zip.\nArchives are kept 7 years.\n"
    const plan = planKnowledge({
      title: null,
      summary: null,
      topics: [
        {
          name: "Archive",
          description: null,
          category: "operations",
          items: [
            item("Archiving", "Zip the folder.", [
              item("Zip", "Zip the folder."),
              item("Check", "Check the checksum."),
              item("Move", "Move the zip.")
            ]),
            item("Retention", "Archives are kept 7 years.")
          ]
        },
        // The same topic again, repeating the first item: nothing moves.
        { name: "archive", description: null, category: "operations", items: [item("archiving", "Zip the folder.")] }
      ]
    }, steps, [{ sequence: 1, end: steps.length }])
    expect(plan.topics[0]!.items.map((i) => `${i.key} ${i.position}`)).toEqual([
      "archiving 1",
      "retention 2",
      "archiving/zip 1",
      "archiving/check 2",
      "archiving/move 3"
    ])
  })
})
