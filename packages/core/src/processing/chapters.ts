/**
 * Markdown into chapters (processing stage 1), pure. Each chapter's `text` is
 * exactly `markdown.slice(start, end)` (UTF-16 offsets, end exclusive): the
 * section below its heading line, without surrounding blank space.
 *
 * - Sections start at H1 and H2 headings (ATX `#`/`##`, or setext underlines);
 *   headings inside fenced code blocks do not count.
 * - Text before the first heading is a chapter with a null headline.
 * - A section over `LARGE_SECTION_CHARS` that has H3 headings is split at them.
 * - A piece over `MAX_CHAPTER_CHARS` is cut at paragraph breaks (else line
 *   breaks, else sentence ends, else anywhere) into chapters of the same headline.
 * - Sections with no text are left out; sequences count from 1 without gaps.
 */

export interface Chapter {
  readonly sequence: number
  readonly headline: string | null
  readonly text: string
  readonly start: number
  readonly end: number
}

export const MAX_CHAPTER_CHARS = 20_000
export const LARGE_SECTION_CHARS = 8_000

interface Heading {
  readonly level: number
  readonly text: string
  /** Where the heading's first line starts. */
  readonly start: number
  /** Just after the heading's last line. */
  readonly contentStart: number
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/
const FENCE = /^ {0,3}(`{3,}|~{3,})/
// A line that cannot be a setext heading's text: blank, a list item, a quote, a table row, a heading.
const NOT_PARAGRAPH = /^\s*$|^ {0,3}([-*+]\s|\d+[.)]\s|>|\||#)/

const headingsOf = (markdown: string): ReadonlyArray<Heading> => {
  const headings: Array<Heading> = []
  let fence: string | null = null
  let previous: { readonly text: string; readonly start: number; readonly paragraph: boolean } | null = null
  let start = 0
  while (start <= markdown.length) {
    const newline = markdown.indexOf("\n", start)
    const lineEnd = newline === -1 ? markdown.length : newline
    const next = newline === -1 ? markdown.length + 1 : newline + 1
    const line = markdown.slice(start, lineEnd).replace(/\r$/, "")
    const fenceMatch = FENCE.exec(line)
    if (fence !== null) {
      if (fenceMatch !== null && fenceMatch[1]!.startsWith(fence)) fence = null
      previous = null
    } else if (fenceMatch !== null) {
      fence = fenceMatch[1]!
      previous = null
    } else {
      const atx = ATX.exec(line)
      const setext = SETEXT.exec(line)
      const contentStart = Math.min(next, markdown.length)
      if (atx !== null) {
        headings.push({ level: atx[1]!.length, text: (atx[2] ?? "").trim(), start, contentStart })
        previous = null
      } else if (setext !== null && previous !== null && previous.paragraph) {
        headings.push({ level: setext[1]!.startsWith("=") ? 1 : 2, text: previous.text.trim(), start: previous.start, contentStart })
        previous = null
      } else {
        previous = { text: line, start, paragraph: !NOT_PARAGRAPH.test(line) }
      }
    }
    start = next
  }
  return headings
}

interface Piece {
  readonly headline: string | null
  readonly start: number
  readonly end: number
}

// The range without surrounding whitespace (empty when there is no text).
const trimmed = (markdown: string, start: number, end: number): Piece & { readonly empty: boolean } => {
  let s = start
  let e = end
  while (s < e && /\s/.test(markdown[s]!)) s++
  while (e > s && /\s/.test(markdown[e - 1]!)) e--
  return { headline: null, start: s, end: e, empty: s === e }
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

// Where to cut [start, end) so the first part is at most `max` long and not too short.
const cutPoint = (markdown: string, start: number, max: number): number => {
  const window = markdown.slice(start, start + max)
  const floor = Math.floor(max / 2)
  for (const separator of ["\n\n", "\n", ". "]) {
    const at = window.lastIndexOf(separator)
    if (at >= floor) return start + at + separator.length
  }
  const hard = start + max
  return isLowSurrogate(markdown.charCodeAt(hard)) ? hard - 1 : hard
}

const splitLong = (markdown: string, piece: Piece, max: number): ReadonlyArray<Piece> => {
  const pieces: Array<Piece> = []
  let start = piece.start
  while (start < piece.end) {
    const range = trimmed(markdown, start, piece.end)
    if (range.empty) break
    if (range.end - range.start <= max) {
      pieces.push({ headline: piece.headline, start: range.start, end: range.end })
      break
    }
    const cut = cutPoint(markdown, range.start, max)
    const part = trimmed(markdown, range.start, cut)
    if (!part.empty) pieces.push({ headline: piece.headline, start: part.start, end: part.end })
    start = cut
  }
  return pieces
}

export const splitIntoChapters = (
  markdown: string,
  limits: { readonly maxChars?: number; readonly largeSectionChars?: number } = {}
): ReadonlyArray<Chapter> => {
  const max = limits.maxChars ?? MAX_CHAPTER_CHARS
  const large = limits.largeSectionChars ?? LARGE_SECTION_CHARS
  const headings = headingsOf(markdown)
  const sections = headings.filter((heading) => heading.level <= 2)
  const pieces: Array<Piece> = []
  const firstStart = sections[0]?.start ?? markdown.length
  pieces.push({ headline: null, start: 0, end: firstStart })
  sections.forEach((section, i) => {
    const end = sections[i + 1]?.start ?? markdown.length
    const subsections = headings.filter((h) => h.level === 3 && h.start >= section.contentStart && h.start < end)
    if (end - section.contentStart <= large || subsections.length === 0) {
      pieces.push({ headline: section.text || null, start: section.contentStart, end })
      return
    }
    pieces.push({ headline: section.text || null, start: section.contentStart, end: subsections[0]!.start })
    subsections.forEach((sub, j) => {
      pieces.push({ headline: sub.text || null, start: sub.contentStart, end: subsections[j + 1]?.start ?? end })
    })
  })
  const chapters: Array<Chapter> = []
  for (const piece of pieces) {
    for (const part of splitLong(markdown, piece, max)) {
      chapters.push({
        sequence: chapters.length + 1,
        headline: part.headline,
        text: markdown.slice(part.start, part.end),
        start: part.start,
        end: part.end
      })
    }
  }
  return chapters
}

/** The chapter a position falls in; a position between chapters (a heading line) belongs to the chapter after it. */
export const chapterAt = <C extends { readonly end: number }>(chapters: ReadonlyArray<C>, position: number): C | undefined => {
  let low = 0
  let high = chapters.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (chapters[mid]!.end > position) high = mid
    else low = mid + 1
  }
  return chapters[low]
}
