/**
 * Markdown inline syntax out, readable text in: for item bodies, names and
 * topic descriptions (quotes keep the verbatim markdown instead).
 */
export const plainText = (raw: string): string =>
  raw
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<(https?:\/\/[^>\s]+)>/g, "$1")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(\*\*|__|~~)(?=\S)([^]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?!\w)/g, "$1$2")
    .replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, "$1$2")
    .replace(/\n[ \t]*>[ \t]?/g, "\n")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, "$1")
    .replace(/\s+/g, " ")
    .trim()

const leadingNoise = /^(?:(?:step|phase|stage|part|section|article|rule)\s+)?(?:[0-9]+(?:\.[0-9]+)*|[A-Za-z]|[IVXLC]+)[.):]\s+/i
const discourse =
  /^(?:however|in addition|additionally|also|furthermore|moreover|note|please note|for example|in general|generally|finally|then|next|first|second|third|afterwards|after that)[,:]?\s+/i

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

/** The sentence without an opening "However," / "Then" / "Note:": what it says, not how it links. */
export const withoutDiscourse = (sentence: string): string => capitalize(sentence.replace(discourse, ""))

/** Cuts `text` to `max` characters at a word boundary, marking the cut. */
export const clip = (text: string, max: number): string => {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(" ")
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.(—–-]+$/, "")}…`
}

/** A heading as a topic name: numbering ("2.1", "Step 3:") and markup removed. */
export const headingName = (raw: string, max = 200): string =>
  clip(plainText(raw.slice(0, max * 4)).replace(leadingNoise, "").trim(), max)

const clauseBreaks = [", ", "; ", ": ", " — ", " – ", " - ", " (", " because ", " so that ", " unless ", " which ", " when ", " if "]

/**
 * A short title for a sentence (at most `max` characters): the sentence
 * itself when short, else its first clause, else its opening words.
 */
export const shortTitle = (sentence: string, max = 80): string => {
  const text = withoutDiscourse(sentence).replace(/[\s.!?;:]+$/, "").trim()
  if (text.length <= max) return text
  let best = -1
  for (const marker of clauseBreaks) {
    let at = text.indexOf(marker)
    while (at !== -1 && at <= max) {
      if (at >= 20 && at > best) best = at
      at = text.indexOf(marker, at + 1)
    }
  }
  return best > 0 ? text.slice(0, best) : clip(text, max)
}

/** "A purchase order is a ..." -> "Purchase order": the thing a definition defines, or null. */
export const definedTerm = (sentence: string): string | null => {
  const match = /^(?:an?|the)?\s*([^,;:]{2,60}?)\s+(?:is|are)\s+(?:an?|the|defined as|any|every)\s|^(?:an?|the)?\s*([^,;:]{2,60}?)\s+(?:means|refers to|stands for)\s/i.exec(
    sentence
  )
  const term = match?.[1] ?? match?.[2]
  if (term === undefined) return null
  const words = term.trim().split(/\s+/)
  // A long or pronoun-led "subject" is a clause, not a term ("It is a ...", "This process is the ...").
  if (words.length > 6 || /^(it|this|that|these|those|there|here|which|what|who|he|she|they|we|you)$/i.test(words[0] ?? "")) {
    return null
  }
  return capitalize(term.trim())
}
