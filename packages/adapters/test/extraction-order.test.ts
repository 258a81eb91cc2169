import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { extractLocally } from "@tks/adapters/extraction/local"
import { isStructuralHeading } from "@tks/adapters/extraction/outline"
import type { ExtractedItem, Extraction } from "@tks/adapters/extraction/port"
import { inputOf } from "./support/extraction-documents.js"

/** Topics as "name: item, item > [step, step]", in the order the extraction gives them. */
const shape = (extraction: Extraction) =>
  extraction.topics.map((topic) => `${topic.name}: ${names(topic.items)}`)
const names = (items: ReadonlyArray<ExtractedItem>): string =>
  items.map((item) => (item.children.length === 0 ? item.name : `${item.name} > [${names(item.children)}]`)).join(", ")

const passwordReset = `# Password reset

Staff reset a forgotten password in the self-service portal.

## Overview

The portal is open 24 hours a day.

## Steps

1. Open the portal at id.example.com.
2. Click **Forgot password**.
3. Enter the code sent to your phone.

## Troubleshooting

If the code does not arrive within 5 minutes, call the service desk on 4444.
`

describe("local knowledge extraction keeps the document's order", () => {
  it.effect("numbered steps come back in document order even when their names sort differently", () =>
    Effect.gen(function*() {
      const markdown = `# Archiving\n\nTo archive a case:\n\n1. Zip the case folder.\n2. Check the checksum file.\n3. Move the zip to the archive share.\n`
      const [topic] = (yield* extractLocally(inputOf(markdown))).topics
      const process = topic!.items.find((item) => item.children.length > 0)!
      expect(process.children.map((step) => step.name)).toEqual([
        "Zip the case folder",
        "Check the checksum file",
        "Move the zip to the archive share"
      ])
    }))

  it.effect("a topic's items come in the order the document states them", () =>
    Effect.gen(function*() {
      const markdown = `# Visitors\n\nVisitors must sign in at reception.\n\nBadges are returned at 18:00 every day.\n\n` +
        `1. Print the badge.\n2. Call the host.\n\nAll visitors must be accompanied at all times.\n`
      const [topic] = (yield* extractLocally(inputOf(markdown))).topics
      const places = topic!.items.map((item) => markdown.indexOf(item.quote))
      expect(topic!.items.length).toBeGreaterThanOrEqual(3)
      expect(places).toEqual([...places].sort((a, b) => a - b))
    }))
})

describe("structural headings are never topics", () => {
  it.effect("a heading named Steps is not a topic: its steps belong to the enclosing topic, after what comes before them", () =>
    Effect.gen(function*() {
      for (const input of [inputOf(passwordReset), { title: "Uploaded document", markdown: passwordReset, chapters: [] }]) {
        expect(shape(yield* extractLocally(input))).toEqual([
          "Password reset: Staff reset a forgotten password in the self-service portal, The portal is open 24 hours a day, " +
          "Password reset > [Open the portal at id.example.com, Click Forgot password, Enter the code sent to your phone], " +
          "If the code does not arrive within 5 minutes, call the service desk on 4444"
        ])
      }
    }))

  it.effect("a label under a subsection belongs to that subsection's topic, not to the document's", () =>
    Effect.gen(function*() {
      const markdown = `# IT handbook\n\nHow IT supports staff.\n\n## Laptops\n\nEvery laptop must be encrypted.\n\n### Procedure\n\n` +
        `1. Request the laptop in the portal.\n2. Collect it from the IT desk.\n\n### Notes\n\nLaptops are replaced every 4 years.\n\n` +
        `## Phones\n\nPhones must have a PIN of 6 digits.\n`
      const result = yield* extractLocally({ title: "Uploaded document", markdown, chapters: [] })
      expect(result.topics.map((topic) => topic.name)).toEqual(["IT handbook", "Laptops", "Phones"])
      expect(names(result.topics[1]!.items)).toBe(
        "Every laptop must be encrypted, Laptops > [Request the laptop in the portal, Collect it from the IT desk], " +
          "Laptops are replaced every 4 years"
      )
    }))

  it.effect("a heading over nothing but a numbered procedure names a process of the enclosing topic", () =>
    Effect.gen(function*() {
      const markdown = `# Onboarding\n\nEvery new hire has a buddy for the first month.\n\n## Before day one\n\n` +
        `1. Create the employee record.\n2. Order the laptop.\n\n## First day\n\nDo this:\n\n1. Hand over the badge.\n2. Introduce the team.\n`
      for (const input of [inputOf(markdown), { title: "Uploaded document", markdown, chapters: [] }]) {
        const result = yield* extractLocally(input)
        expect(result.topics.map((topic) => topic.name)).toEqual(["Onboarding"])
        const processes = result.topics[0]!.items.filter((item) => item.children.length > 0)
        expect(processes.map((process) => `${process.name}: ${names(process.children)}`)).toEqual([
          "Before day one: Create the employee record, Order the laptop",
          "Do this: Hand over the badge, Introduce the team"
        ])
      }
    }))

  it.effect("numbering-only headings are not topics; their knowledge is the enclosing topic's, in order", () =>
    Effect.gen(function*() {
      const markdown = `# Fire drill\n\nFire drills are held twice a year.\n\n## 1.\n\nStaff must leave by the nearest exit.\n\n` +
        `## Step 2\n\nEvery team must meet at assembly point B.\n`
      const result = yield* extractLocally({ title: "Uploaded document", markdown, chapters: [] })
      expect(shape(result)).toEqual([
        "Fire drill: Fire drills are held twice a year, Staff must leave by the nearest exit, Every team must meet at assembly point B"
      ])
    }))

  it.effect("an H1 that is only a label is not the document's title: the document keeps the title it was given", () =>
    Effect.gen(function*() {
      const result = yield* extractLocally({ title: "Badge rules", markdown: "# Overview\n\nStaff must wear a badge.\n", chapters: [] })
      expect(result.title).toBeNull()
      expect(result.topics.map((topic) => topic.name)).toEqual(["Badge rules"])
    }))

  it("generic labels, their qualified forms and numbers alone are structural; a heading with a subject is not", () => {
    for (
      const heading of [
        "Steps", "Procedure", "Overview", "Introduction", "Summary", "Notes", "Appendix", "Contents", "Table of contents",
        "Next steps", "Key points", "Frequently asked questions", "Step-by-step instructions", "Background and scope",
        "2.1", "Step 3", "Part II", "B.", "**Steps**", "## 4. Notes"
      ]
    ) expect(isStructuralHeading(heading), heading).toBe(true)
    for (
      const heading of [
        "Password reset", "Steps to a safe forklift", "Fire safety", "Approval limits", "Step 3: Install the app",
        "Appendix A: Expense codes", "Civil works", "Mix design", "Roles"
      ]
    ) expect(isStructuralHeading(heading), heading).toBe(false)
  })
})
