import { clip } from "./plain-text.js"
import type { Sentence } from "./sentences.js"

/**
 * The document's summary: its one or two most representative prose
 * sentences, in document order. A sentence ranks high when it comes early
 * and shares many of the document's frequent words (a plain centrality
 * score), which favours an introduction that says what the document is about.
 */
const stopwords = new Set(
  ("about above after again against also because been before being below between both cannot could does doing down " +
    "during each from further have having here into itself just more most must only other over same shall should some " +
    "such than that their them then there these they this those through under until very were what when where which " +
    "while will with within without would your yours our ours you all any are can may not the and for")
    .split(" ")
)

const contentWords = (plain: string): Set<string> =>
  new Set(
    [...plain.toLowerCase().matchAll(/[a-z][a-z-]{3,}/g)]
      .map(([word]) => word)
      .filter((word) => !stopwords.has(word))
  )

export const summaryOf = (prose: ReadonlyArray<Sentence>, sentences = 2): string | null => {
  const candidates = prose.filter(
    (sentence) => sentence.words >= 6 && sentence.words <= 50 && !/[:?]$/.test(sentence.plain)
  )
  if (candidates.length === 0) return null
  const words = candidates.map((sentence) => contentWords(sentence.plain))
  const frequency = new Map<string, number>()
  for (const set of words) for (const word of set) frequency.set(word, (frequency.get(word) ?? 0) + 1)

  const centrality = words.map((set) => {
    let total = 0
    for (const word of set) total += Math.log(1 + (frequency.get(word) ?? 0))
    return total / Math.sqrt(1 + set.size)
  })
  const top = Math.max(...centrality, 1e-9)
  const chosen = candidates
    .map((sentence, index) => ({
      sentence,
      score: 0.35 * (centrality[index]! / top) + 0.6 / (1 + index / 2) + (/\d/.test(sentence.plain) ? 0.05 : 0)
    }))
    .sort((a, b) => b.score - a.score || a.sentence.start - b.sentence.start)
    .slice(0, sentences)
    .sort((a, b) => a.sentence.start - b.sentence.start)
  return clip(chosen.map(({ sentence }) => sentence.plain).join(" "), 2000)
}
