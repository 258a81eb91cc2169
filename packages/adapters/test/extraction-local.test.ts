import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { extractLocally } from "@tks/adapters/extraction/local"
import { type ExtractedItem, Extraction, type ExtractionInput } from "@tks/adapters/extraction/port"
import { expensePolicy, inputOf, onboardingRunbook, securityStandard } from "./support/extraction-documents.js"

const extract = (input: ExtractionInput) => extractLocally(input)

/** Every item and child item of an extraction, with its topic's name. */
const itemsOf = (extraction: Extraction) => {
  const all: Array<ExtractedItem & { topic: string }> = []
  const walk = (topic: string, items: ReadonlyArray<ExtractedItem>) => {
    for (const item of items) {
      all.push({ ...item, topic })
      walk(topic, item.children)
    }
  }
  for (const topic of extraction.topics) walk(topic.name, topic.items)
  return all
}

const itemQuoting = (extraction: Extraction, text: string) => {
  const item = itemsOf(extraction).find((candidate) => candidate.quote.includes(text))
  if (item === undefined) throw new Error(`no item quotes ${JSON.stringify(text)}`)
  return item
}

describe("local knowledge extraction: topics from the document's structure", () => {
  it.effect("each section with a heading becomes a topic named by its heading, in document order", () =>
    Effect.gen(function*() {
      const result = yield* extract(inputOf(expensePolicy))
      expect(result.topics.map((topic) => topic.name)).toEqual([
        "Travel and Expense Policy",
        "Submitting expenses",
        "Approval limits",
        "Travel"
      ])
      expect(result.topics[1]?.description).toBe(
        "Employees must submit every expense claim within 30 days of purchase."
      )
    }))

  it.effect("the title is the first H1 and the summary is taken from the introduction", () =>
    Effect.gen(function*() {
      const result = yield* extract(inputOf(expensePolicy, "expenses.md"))
      expect(result.title).toBe("Travel and Expense Policy")
      expect(result.summary).toContain("This policy explains how Acme Corp reimburses business expenses.")
    }))

  it.effect("a document without headings gives one topic named after its title, and no title of its own", () =>
    Effect.gen(function*() {
      const markdown = "Visitors must sign in at reception. Badges are returned at 18:00 every day.\n"
      const result = yield* extract({ title: "Visitor rules", markdown, chapters: [] })
      expect(result.title).toBeNull()
      expect(result.topics.map((topic) => topic.name)).toEqual(["Visitor rules"])
      expect(itemsOf(result).map((item) => item.kind)).toEqual(["policy", "fact"])
    }))

  it.effect("without chapters from the pipeline the document's own headings give the same topics", () =>
    Effect.gen(function*() {
      const withChapters = yield* extract(inputOf(securityStandard))
      const withoutChapters = yield* extract({ title: "Uploaded document", markdown: securityStandard, chapters: [] })
      expect(withoutChapters).toEqual(withChapters)
    }))

  it.effect("a chapter whose range does not fit the markdown is found by its text", () =>
    Effect.gen(function*() {
      const input = inputOf(onboardingRunbook)
      const shifted = { ...input, chapters: input.chapters.map((chapter) => ({ ...chapter, start: -1, end: 10_000_000 })) }
      expect(yield* extract(shifted)).toEqual(yield* extract(input))
    }))

  it.effect("empty and whitespace-only documents give no topics, without failing", () =>
    Effect.gen(function*() {
      for (const markdown of ["", "   \n\n\t  \n", "#\n\n##   \n", "```\ncode only\n```\n"]) {
        const result = yield* extract({ title: "Empty", markdown, chapters: [] })
        expect(result.topics, JSON.stringify(markdown)).toEqual([])
        expect(result.summary).toBeNull()
      }
      const result = yield* extract({ title: "", markdown: " ", chapters: [{ sequence: 0, headline: null, text: " ", start: 0, end: 1 }] })
      expect(result.topics).toEqual([])
    }))
})

describe("local knowledge extraction: item kinds", () => {
  it.effect("a sentence with a normative modal (must, required, never, prohibited) is a policy", () =>
    Effect.gen(function*() {
      const expenses = yield* extract(inputOf(expensePolicy))
      expect(itemQuoting(expenses, "Employees must submit every expense claim").kind).toBe("policy")
      expect(itemQuoting(expenses, "Receipts are required for any expense over $25.").kind).toBe("policy")
      expect(itemQuoting(expenses, "Alcohol is never reimbursed.").kind).toBe("policy")
      const security = yield* extract(inputOf(securityStandard))
      expect(itemQuoting(security, "Shared accounts are prohibited.").kind).toBe("policy")
    }))

  it.effect("a numbered list is a process whose steps are its children, named by the lead-in sentence", () =>
    Effect.gen(function*() {
      const result = yield* extract(inputOf(expensePolicy))
      const process = itemQuoting(result, "To file a claim:")
      expect(process.kind).toBe("process")
      expect(process.name).toBe("To file a claim")
      expect(process.children.map((step) => [step.kind, step.name])).toEqual([
        ["process", "Open Expensify and choose New report"],
        ["process", "Attach a photo of each receipt"],
        ["process", "Select the cost center of your team"],
        ["process", "Submit the report to your manager for approval"]
      ])
    }))

  it.effect("numbered steps without a lead-in are a process named after their section", () =>
    Effect.gen(function*() {
      const result = yield* extract(inputOf(onboardingRunbook))
      const firstDay = result.topics.find((topic) => topic.name === "First day")!
      const process = firstDay.items.find((item) => item.children.length > 0)!
      expect(process.name).toBe("First day")
      expect(process.children.map((step) => step.quote)).toEqual([
        "Collect the signed contract and tax forms.",
        "Set up the laptop and sign in with SSO.",
        "Enroll in health benefits within 30 days."
      ])
    }))

  it.effect("an instruction in a runbook is a process; the same kind of instruction in a standard is a policy", () =>
    Effect.gen(function*() {
      const runbook = yield* extract(inputOf(onboardingRunbook))
      expect(itemQuoting(runbook, "Welcome the new hire at reception at 9:00.").kind).toBe("process")
      expect(itemQuoting(runbook, "Then walk through the handbook together.").kind).toBe("process")
      const standard = yield* extract(inputOf(securityStandard))
      expect(itemQuoting(standard, "Lock your screen whenever you leave your laptop.").kind).toBe("policy")
    }))

  it.effect("an informative sentence with a number, a date, a name or a definition is a fact", () =>
    Effect.gen(function*() {
      const result = yield* extract(inputOf(expensePolicy))
      expect(itemQuoting(result, "The per diem is 60 EUR in Germany").kind).toBe("fact")
      expect(itemQuoting(result, "on the 15th of each month").kind).toBe("fact")
      const definition = itemQuoting(result, "A per diem is a fixed daily allowance")
      expect([definition.kind, definition.name]).toEqual(["fact", "Per diem"])
    }))

  it.effect("sentences that say nothing checkable (no modal, number, name, instruction) are not items", () =>
    Effect.gen(function*() {
      const markdown = "# Culture\n\nThis page is about our culture. We like working together and we value kindness.\n"
      const result = yield* extract(inputOf(markdown))
      expect(itemsOf(result)).toEqual([])
      expect(result.topics.map((topic) => [topic.name, topic.description])).toEqual([
        ["Culture", "This page is about our culture."]
      ])
    }))

  it.effect("code blocks, tables and HTML are not read as prose", () =>
    Effect.gen(function*() {
      const result = yield* extract(inputOf(securityStandard))
      expect(itemsOf(result).some((item) => item.quote.includes("fdesetup"))).toBe(false)
      const table = "# Limits\n\n| Item | Limit |\n|---|---|\n| Hotels must cost | 200 USD |\n\n<div>Staff must not see this</div>\n"
      expect(itemsOf(yield* extract(inputOf(table)))).toEqual([])
    }))
})

describe("local knowledge extraction: quotes, names, ranking", () => {
  it.effect("every quote (items and steps) is a verbatim substring of the markdown; bodies drop the markup", () =>
    Effect.gen(function*() {
      for (const markdown of [expensePolicy, securityStandard, onboardingRunbook]) {
        const items = itemsOf(yield* extract(inputOf(markdown)))
        expect(items.length).toBeGreaterThan(5)
        for (const item of items) expect(markdown, item.quote).toContain(item.quote)
      }
      const step = itemQuoting(yield* extract(inputOf(expensePolicy)), "Open Expensify")
      expect(step.quote).toBe("Open Expensify and choose **New report**.")
      expect(step.body).toBe("Open Expensify and choose New report.")
      const link = itemQuoting(yield* extract(inputOf(securityStandard)), "Report suspected phishing")
      expect(link.body).toBe("Report suspected phishing emails to the security desk within one hour.")
    }))

  it.effect("a sentence wrapped over several lines is one item whose quote keeps the line break", () =>
    Effect.gen(function*() {
      const markdown = "# Safety\n\nVisitors must wear a helmet\nin every part of the warehouse.\n"
      const [item] = itemsOf(yield* extract(inputOf(markdown)))
      expect(item?.quote).toBe("Visitors must wear a helmet\nin every part of the warehouse.")
      expect(item?.body).toBe("Visitors must wear a helmet in every part of the warehouse.")
    }))

  it.effect("item names are short titles (at most 80 characters) and unique within their topic", () =>
    Effect.gen(function*() {
      const long = "Contractors who access the production network from outside the office must connect through the " +
        "company VPN, keep their client up to date, and disconnect when the session ends."
      const markdown = `# Remote access\n\n${long}\n\n- Close the session.\n- Close the session.\n`
      const result = yield* extract(inputOf(markdown))
      for (const item of itemsOf(result)) expect(item.name.length).toBeLessThanOrEqual(80)
      expect(itemQuoting(result, "Contractors who access").name).toBe(
        "Contractors who access the production network from outside the office must…"
      )
      const names = result.topics[0]!.items.map((item) => item.name.toLowerCase())
      expect(new Set(names).size).toBe(names.length)
    }))

  it.effect("at most 12 items per topic, the best-scored kept, in document order, confidence between 0 and 1", () =>
    Effect.gen(function*() {
      const rules = Array.from({ length: 30 }, (_, index) => `Rule ${index + 1}: staff must file form ${index + 1}.`)
      const markdown = `# Forms\n\n${rules.join(" ")}\n`
      const [topic] = (yield* extract(inputOf(markdown))).topics
      expect(topic?.items).toHaveLength(12)
      const positions = topic!.items.map((item) => markdown.indexOf(item.quote))
      expect(positions).toEqual([...positions].sort((a, b) => a - b))
      for (const item of topic!.items) expect(item.confidence).toBeGreaterThan(0)
      for (const item of topic!.items) expect(item.confidence).toBeLessThanOrEqual(1)
    }))
})

describe("local knowledge extraction: categories, determinism, the Schema", () => {
  it.effect("categories follow the text: security in it-security, expenses in finance, onboarding in people", () =>
    Effect.gen(function*() {
      const categories = (extraction: Extraction) => new Set(extraction.topics.map((topic) => topic.category))
      expect(categories(yield* extract(inputOf(securityStandard)))).toEqual(new Set(["it-security"]))
      expect(categories(yield* extract(inputOf(expensePolicy)))).toEqual(new Set(["finance"]))
      expect(categories(yield* extract(inputOf(onboardingRunbook)))).toEqual(new Set(["people"]))
    }))

  it.effect("a section about another subject gets its own category; text with no keyword is operations", () =>
    Effect.gen(function*() {
      const markdown = `${expensePolicy}\n## Fire safety\n\nIn case of fire, evacuate the building by the nearest emergency exit and meet at assembly point B. Never use the elevator during an evacuation.\n`
      const result = yield* extract(inputOf(markdown))
      expect(result.topics.find((topic) => topic.name === "Fire safety")?.category).toBe("health-safety")
      const plain = yield* extract({ title: "Note", markdown: "Please be kind. It is 5 o'clock.", chapters: [] })
      expect(plain.topics.map((topic) => topic.category)).toEqual(["operations"])
    }))

  it.effect("the same input gives the same output, every time", () =>
    Effect.gen(function*() {
      for (const markdown of [expensePolicy, securityStandard, onboardingRunbook]) {
        const first = yield* extract(inputOf(markdown))
        const second = yield* extract(inputOf(markdown))
        expect(JSON.stringify(second)).toBe(JSON.stringify(first))
      }
    }))

  it.effect("the output is exactly what the Extraction Schema decodes (encode then decode gives it back)", () =>
    Effect.gen(function*() {
      for (const markdown of [expensePolicy, securityStandard, onboardingRunbook]) {
        const result = yield* extract(inputOf(markdown))
        const encoded = yield* Schema.encode(Extraction)(result)
        expect(yield* Schema.decodeUnknown(Extraction)(JSON.parse(JSON.stringify(encoded)))).toEqual(result)
      }
    }))
})
