import { blocksOf, firstH1 } from "./markdown-blocks.js"
import { headingName } from "./plain-text.js"

/**
 * The document's outline: which topic each section's knowledge belongs to.
 * Both extractors use it, so they agree on one rule: a heading is a topic
 * unless it only labels part of one. Such a heading (a structural one) is a
 * generic section label with no subject ("Steps", "Overview", "Notes"), a
 * number alone ("2.1", "Step 3", "Part II"), or the heading of a section that
 * holds nothing but one numbered procedure (that heading names the procedure,
 * not a subject). A structural section's knowledge belongs to the topic of the
 * section that encloses it (the nearest heading above it of a higher level),
 * or to the document's own topic when none does.
 */

/** Words that label a part of a document without saying what it is about. */
const labels = new Set(
  ("overview overviews introduction intro summary summaries abstract preface foreword preamble conclusion conclusions " +
    "note notes remarks comments appendix appendices annex annexes attachment attachments contents toc " +
    "step steps procedure procedures process processes instruction instructions method methods checklist " +
    "background context purpose scope objective objectives goal goals details description information info " +
    "reference references resources documents documentation links reading example examples faq faqs questions " +
    "answers glossary definitions terminology prerequisites requirements rules policy policies guidelines tips " +
    "troubleshooting history revision revisions changelog changes version versions outline miscellaneous misc " +
    "highlights takeaways points getting started")
    .split(" ")
)
/** Words that qualify a label without giving it a subject ("Key points", "Next steps", "Table of contents"). */
const fillers = new Set(
  ("a an the and or of to for in on at by with this these that our your its general key main brief short quick " +
    "further additional other more important related detailed next see also document section page table frequently " +
    "asked")
    .split(" ")
)
const numberLabel = /^(?:step|phase|stage|part|section|chapter|article|rule|no|nr)$/
const numbering = /^(?:\d+(?:\.\d+)*|[a-z]|x{0,3}(?:ix|iv|v?i{0,3}))$/

/** A heading that labels part of a document rather than naming a subject: generic words or a number alone. */
export const isStructuralHeading = (raw: string): boolean => {
  const words = headingName(raw).toLowerCase().match(/[\p{L}\p{N}]+(?:\.\d+)*/gu) ?? []
  if (words.length === 0) return true
  return words.every((word) => labels.has(word) || fillers.has(word) || numberLabel.test(word) || numbering.test(word))
}

export type SectionRole =
  /** A heading that names a subject: the section is its topic. */
  | "topic"
  /** A structural label ("Steps", "Notes", "2.1"). */
  | "label"
  /** The heading of a section holding only a numbered procedure: it names that process. */
  | "procedure"

export interface Section {
  /** Where the heading's line starts, and where the section ends (the next heading of any level). */
  readonly start: number
  readonly end: number
  readonly level: number
  /** The heading's text as written (markup included). */
  readonly heading: string
  /** The heading as a topic name (numbering and markup removed); may be empty. */
  readonly name: string
  readonly role: SectionRole
  /** The topic the section's knowledge goes to: its own name, or for a label or a procedure the enclosing topic's. */
  readonly topic: string
}

const lineStart = (markdown: string, at: number) => markdown.lastIndexOf("\n", at - 1) + 1

/**
 * A section that holds one numbered list and nothing else but, perhaps, the
 * sentence that introduces it ("Do this:"): a procedure under a heading.
 */
const onlyProcedure = (markdown: string, from: number, to: number): boolean => {
  // Markup alone (a setext underline, a closing "##") is not content.
  const blocks = blocksOf(markdown, from, to).filter((block) => /[\p{L}\p{N}]/u.test(markdown.slice(block.start, block.end)))
  const first = blocks.findIndex((block) => block.kind === "ordered")
  if (first === -1) return false
  const leadIn = blocks.slice(0, first)
  const introduced = leadIn.length === 0 ||
    (leadIn.length === 1 && leadIn[0]!.kind === "paragraph" &&
      markdown.slice(leadIn[0]!.start, leadIn[0]!.end).trimEnd().endsWith(":"))
  const { indent, run } = blocks[first]!
  return introduced &&
    blocks.slice(first).every((block) =>
      block.run === run && (block.kind === "ordered" || (block.kind === "bullet" && block.indent > indent))
    )
}

export interface Outline {
  readonly sections: ReadonlyArray<Section>
  /** The section a position of the markdown falls in (its heading line included), if any. */
  readonly sectionAt: (position: number) => Section | undefined
  /**
   * The section of the heading `name` that a chapter starting at `position`
   * is under: the nearest such heading at or before it (a chapter the
   * pipeline cut from a long section starts below other headings).
   */
  readonly sectionOf: (position: number, name: string) => Section | undefined
  /** The first section with this heading (compared as topic names, case-insensitively). */
  readonly sectionNamed: (name: string) => Section | undefined
}

/** How far back `sectionOf` looks for its heading: bounds the work on a document of many headings. */
const lookBack = 50

/** The outline of `markdown`; `documentName` is the topic of whatever no heading encloses. */
export const outlineOf = (markdown: string, documentName: string): Outline => {
  const headings = blocksOf(markdown).filter((block) => block.kind === "heading")
  const starts = headings.map((heading) => lineStart(markdown, heading.start))
  const sections: Array<Section> = []
  headings.forEach((heading, index) => {
    const end = starts[index + 1] ?? markdown.length
    const text = markdown.slice(heading.start, heading.end)
    const name = headingName(text)
    let parent: Section | undefined
    for (let j = sections.length - 1; j >= 0 && parent === undefined; j--) {
      if (sections[j]!.level < heading.level) parent = sections[j]
    }
    // An H1 is the document's title or one of its parts: never only a procedure's name.
    const role: SectionRole = name === "" || isStructuralHeading(name)
      ? "label"
      : heading.level > 1 && onlyProcedure(markdown, heading.end, end)
      ? "procedure"
      : "topic"
    sections.push({
      start: starts[index]!,
      end,
      level: heading.level,
      heading: text,
      name,
      role,
      topic: role === "topic" ? name : parent?.topic ?? documentName
    })
  })

  const indexAt = (position: number) => {
    let low = 0
    let high = sections.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (sections[mid]!.start <= position) low = mid + 1
      else high = mid
    }
    return low - 1
  }
  const sectionOf = (position: number, name: string) => {
    const key = headingName(name).toLowerCase()
    const at = indexAt(position)
    for (let i = at; i >= 0 && i > at - lookBack; i--) {
      if (sections[i]!.name.toLowerCase() === key) return sections[i]
    }
    return undefined
  }
  const byName = new Map<string, Section>()
  for (const section of sections) {
    const key = section.name.toLowerCase()
    if (!byName.has(key)) byName.set(key, section)
  }
  return {
    sections,
    sectionAt: (position) => sections[indexAt(position)],
    sectionOf,
    sectionNamed: (name) => byName.get(headingName(name).toLowerCase())
  }
}

/**
 * The document's own title, when its first H1 names a subject, and the name
 * of its topic: that title, else the title it was given.
 */
export const documentNames = (markdown: string, givenTitle: string) => {
  const h1 = firstH1(markdown, blocksOf(markdown))
  const own = h1 === null ? "" : headingName(h1)
  const title = own === "" || isStructuralHeading(own) ? null : own
  return { title, documentName: title ?? (headingName(givenTitle) || "Document") }
}
