/** Where an extracted quote sits in the document (stage 2's evidence ranges), pure. */

export interface TextRange {
  readonly start: number
  readonly end: number
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const exactly = (body: string, quote: string, from: number): TextRange | null => {
  const at = body.indexOf(quote, from)
  return at === -1 ? null : { start: at, end: at + quote.length }
}

const ignoringWhitespace = (body: string, quote: string, from: number): TextRange | null => {
  const words = quote.trim().split(/\s+/).filter((word) => word !== "")
  if (words.length === 0) return null
  const pattern = new RegExp(words.map(escapeRegExp).join("\\s+"), "gu")
  pattern.lastIndex = from
  const match = pattern.exec(body)
  return match === null ? null : { start: match.index, end: match.index + match[0].length }
}

/**
 * The first place `quote` occurs in `body` at or after `from` (else from the
 * start): verbatim, else with any run of whitespace matching any other (an
 * extractor may rejoin wrapped lines). Null when it is not there: the item
 * it backs is dropped. `from` lets a caller whose quotes come in document
 * order search on from the last one found.
 */
export const locateQuote = (body: string, quote: string, from = 0): TextRange | null => {
  if (quote.trim() === "") return null
  const search = (finder: (body: string, quote: string, from: number) => TextRange | null) =>
    finder(body, quote, from) ?? (from > 0 ? finder(body, quote, 0) : null)
  return search(exactly) ?? search(ignoringWhitespace)
}

/** The evidence locator of a character range, unique per (item, content). */
export const charsLocator = (range: TextRange) => `chars:${range.start}-${range.end}`
