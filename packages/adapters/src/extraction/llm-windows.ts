import type { Extraction, ExtractionInput } from "./port.js"

/**
 * A long document is sent in windows: whole chapters packed in order until a
 * window holds `windowChars`; a chapter longer than that is cut at paragraph
 * breaks (or, for one giant paragraph, at the limit). Only the first
 * `maxWindows` windows are sent, which bounds the cost of a huge document;
 * `skippedChars` says how much was left out.
 */
export interface Windows {
  readonly windows: ReadonlyArray<string>
  readonly skippedChars: number
}

const chapterTexts = (input: ExtractionInput): Array<string> => {
  const { markdown } = input
  if (input.chapters.length === 0) return [markdown]
  return [...input.chapters].sort((a, b) => a.sequence - b.sequence).map((chapter) =>
    chapter.start >= 0 && chapter.start <= chapter.end && chapter.end <= markdown.length
      ? markdown.slice(chapter.start, chapter.end)
      : chapter.text
  )
}

/** Pieces of at most `limit` characters, cut at a blank line when there is one in the second half. */
const piecesOf = (text: string, limit: number): Array<string> => {
  const pieces: Array<string> = []
  let rest = text
  while (rest.length > limit) {
    const breakAt = rest.lastIndexOf("\n\n", limit)
    const cut = breakAt > limit / 2 ? breakAt + 2 : limit
    pieces.push(rest.slice(0, cut))
    rest = rest.slice(cut)
  }
  if (rest.trim() !== "") pieces.push(rest)
  return pieces
}

export const windowsOf = (input: ExtractionInput, windowChars: number, maxWindows: number): Windows => {
  const windows: Array<string> = []
  let current = ""
  for (const piece of chapterTexts(input).flatMap((text) => piecesOf(text, windowChars))) {
    if (current.length + piece.length > windowChars && current.trim() !== "") {
      windows.push(current)
      current = ""
    }
    current += piece
  }
  if (current.trim() !== "") windows.push(current)
  const sent = windows.slice(0, maxWindows)
  return {
    windows: sent,
    skippedChars: windows.slice(maxWindows).reduce((sum, window) => sum + window.length, 0)
  }
}

/** The windows' answers as one: topics of the same name merged, the first title and summary kept. */
export const mergeExtractions = (parts: ReadonlyArray<Extraction>): Extraction => {
  const topics = new Map<string, Extraction["topics"][number]>()
  for (const part of parts) {
    for (const topic of part.topics) {
      const key = topic.name.toLowerCase()
      const known = topics.get(key)
      topics.set(
        key,
        known === undefined
          ? topic
          : { ...known, description: known.description ?? topic.description, items: [...known.items, ...topic.items] }
      )
    }
  }
  return {
    title: parts.find((part) => part.title !== null)?.title ?? null,
    summary: parts.find((part) => part.summary !== null)?.summary ?? null,
    topics: [...topics.values()]
  }
}
