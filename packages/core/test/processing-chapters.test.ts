import { describe, expect, it } from "@effect/vitest"
import { chapterAt, type Chapter, LARGE_SECTION_CHARS, MAX_CHAPTER_CHARS, splitIntoChapters } from "../src/processing/chapters.js"

const shape = (chapters: ReadonlyArray<Chapter>) => chapters.map((c) => [c.sequence, c.headline, c.text])

// Every chapter's text is its range of the markdown, and the ranges are in order without overlap.
const expectExactRanges = (markdown: string, chapters: ReadonlyArray<Chapter>) => {
  let previousEnd = 0
  for (const chapter of chapters) {
    expect(markdown.slice(chapter.start, chapter.end)).toBe(chapter.text)
    expect(chapter.start).toBeGreaterThanOrEqual(previousEnd)
    previousEnd = chapter.end
  }
}

const paragraph = (n: number, words = 40) =>
  Array.from({ length: words }, (_, i) => `word${n}x${i}`).join(" ") + "."

describe("markdown into chapters", () => {
  it("splits at H1 and H2 headings, keeping the text before the first heading as a chapter without headline", () => {
    const markdown = "Intro line.\n\n# Title\n\nAbout.\n\n## First\n\nOne.\n\n## Second ##\nTwo.\n"
    const chapters = splitIntoChapters(markdown)
    expect(shape(chapters)).toEqual([
      [1, null, "Intro line."],
      [2, "Title", "About."],
      [3, "First", "One."],
      [4, "Second", "Two."]
    ])
    expectExactRanges(markdown, chapters)
  })

  it("leaves out sections with no text and numbers the rest from 1 without gaps", () => {
    const markdown = "# Handbook\n\n## Empty\n\n## Filled\nText.\n"
    expect(shape(splitIntoChapters(markdown))).toEqual([[1, "Filled", "Text."]])
  })

  it("keeps H3 inside its section while the section is small", () => {
    const markdown = "## Section\nLead.\n### Sub\nDetail.\n"
    expect(shape(splitIntoChapters(markdown))).toEqual([[1, "Section", "Lead.\n### Sub\nDetail."]])
  })

  it("splits a large section at its H3 headings", () => {
    const long = paragraph(1, Math.ceil(LARGE_SECTION_CHARS / 8))
    const markdown = `## Big\nLead.\n\n### Part A\n${long}\n\n### Part B\nShort.\n`
    const chapters = splitIntoChapters(markdown)
    expect(chapters.map((c) => c.headline)).toEqual(["Big", "Part A", "Part B"])
    expect(chapters[1]!.text).toBe(long)
    expectExactRanges(markdown, chapters)
  })

  it("cuts a section longer than the maximum at paragraph breaks into chapters of the same headline", () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => paragraph(i, 100))
    const markdown = `## Long\n${paragraphs.join("\n\n")}\n`
    const chapters = splitIntoChapters(markdown)
    expect(chapters.length).toBeGreaterThan(1)
    for (const chapter of chapters) {
      expect(chapter.headline).toBe("Long")
      expect(chapter.text.length).toBeLessThanOrEqual(MAX_CHAPTER_CHARS)
      // Cut between paragraphs: each chapter starts and ends a paragraph.
      expect(chapter.text.startsWith("word")).toBe(true)
      expect(chapter.text.endsWith(".")).toBe(true)
    }
    expect(chapters.map((c) => c.text).join("\n\n")).toBe(paragraphs.join("\n\n"))
    expectExactRanges(markdown, chapters)
  })

  it("cuts one enormous paragraph anyway, and never between the halves of a surrogate pair", () => {
    const markdown = "😀".repeat(30_000)
    const chapters = splitIntoChapters(markdown, { maxChars: 999 })
    for (const chapter of chapters) {
      expect(chapter.text.length).toBeLessThanOrEqual(999)
      expect(chapter.text.length % 2).toBe(0)
    }
    expect(chapters.map((c) => c.text).join("")).toBe(markdown)
  })

  it("ignores headings inside fenced code blocks", () => {
    const markdown = "## Code\n```sh\n# not a heading\n## nor this\n```\nAfter.\n"
    expect(shape(splitIntoChapters(markdown))).toEqual([[1, "Code", "```sh\n# not a heading\n## nor this\n```\nAfter."]])
  })

  it("reads setext headings, but not a rule under a list item", () => {
    const markdown = "Title\n=====\nBody.\n\nPart\n----\nMore.\n\n- item\n---\nTail.\n"
    const chapters = splitIntoChapters(markdown)
    expect(shape(chapters)).toEqual([
      [1, "Title", "Body."],
      [2, "Part", "More.\n\n- item\n---\nTail."]
    ])
    expectExactRanges(markdown, chapters)
  })

  it("gives no chapters for an empty or blank body", () => {
    expect(splitIntoChapters("")).toEqual([])
    expect(splitIntoChapters(" \n\n\t\n")).toEqual([])
  })

  it("reads CRLF line ends", () => {
    const markdown = "## One\r\nA.\r\n## Two\r\nB.\r\n"
    const chapters = splitIntoChapters(markdown)
    expect(shape(chapters)).toEqual([[1, "One", "A."], [2, "Two", "B."]])
  })
})

describe("the chapter of a position", () => {
  const chapters = [{ sequence: 1, end: 10 }, { sequence: 2, end: 20 }]

  it("is the chapter holding it, or for a heading between chapters the one after it", () => {
    expect(chapterAt(chapters, 0)?.sequence).toBe(1)
    expect(chapterAt(chapters, 9)?.sequence).toBe(1)
    expect(chapterAt(chapters, 10)?.sequence).toBe(2)
    expect(chapterAt(chapters, 20)).toBeUndefined()
  })
})
