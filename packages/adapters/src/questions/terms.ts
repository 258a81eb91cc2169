import nlp from "compromise"
import { normalizeAnswer } from "@tks/domain/quiz"

/**
 * The key terms of a sentence that a question can blank out, each with its
 * class, so that a multiple-choice question offers other terms of the same
 * class as distractors (a number for a number, a weekday for a weekday, an
 * item's name for an item's name, a noun phrase for a noun phrase).
 */
type TermClass = "item" | "number" | "time" | "weekday" | "month" | "phrase"

export interface Term {
  /** As it is written in the sentence. */
  readonly text: string
  readonly termClass: TermClass
}

const units = [
  "%|percent|per cent|seconds?|minutes?|hours?|days?|weeks?|months?|years?|times",
  "people|persons|employees|members|engineers|steps|items|points|levels|floors|pallets",
  "euros?|dollars?|pounds?|kg|g|t|tonnes?|tons?|km|m|cm|mm|l|litres?|liters?|mph|km/h|°C|°F"
].join("|")
const numberPattern = new RegExp(`(?<![\\w.:$€£])[$€£]?\\d+(?:[.,]\\d+)?(?:\\s?(?:${units})\\b|%)?(?![\\w:])`, "gi")
const timePattern = /(?<![\w:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\w:])/g
const weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
const weekdayPattern = new RegExp(`\\b(?:${weekdays.join("|")})\\b`, "g")
// "May" is left out: as a modal verb it is far more common than the month.
const monthPattern = new RegExp(`\\b(?:${months.filter((month) => month !== "May").join("|")})\\b`, "g")

const leadingWords = /^(?:(?:the|a|an|every|each|all|any|some|this|that|these|those|our|your|their|its|his|her|no|other)\s+)+/i
const pronouns = /^(?:it|they|them|we|you|he|she|everyone|everybody|someone|anyone|nobody|something|anything|nothing|this|that|which|who)$/i

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Where `name` occurs in `sentence` as whole words, ignoring case: the text as written there, or null. */
export const findWords = (sentence: string, name: string): string | null => {
  if (name.trim().length < 3) return null
  const match = new RegExp(`(?<![\\p{L}\\p{N}])${escape(name.trim())}(?![\\p{L}\\p{N}])`, "iu").exec(sentence)
  return match === null ? null : match[0]
}

const matchesOf = (pattern: RegExp, sentence: string, termClass: TermClass): Array<Term> =>
  [...sentence.matchAll(pattern)].map((match) => ({ text: match[0].trim(), termClass }))

/** The noun phrases compromise finds, without their determiners; pronouns and tiny words left out. */
const nounPhrases = (sentence: string): Array<string> =>
  (nlp(sentence).nouns().out("array") as Array<unknown>)
    .filter((phrase): phrase is string => typeof phrase === "string")
    .map((phrase) => phrase.replace(/[\s.,;:!?"'’)(]+$/u, "").replace(/^[\s"'‘(]+/u, "").replace(leadingWords, "").trim())
    .filter((phrase) => phrase.length >= 4 && phrase.split(/\s+/).length <= 4 && !pronouns.test(phrase) && !/\d/.test(phrase))

/**
 * The sentence's terms, best first: item names it mentions, then numbers,
 * times, weekdays and months, then noun phrases. Each term occurs in the
 * sentence as written.
 */
export const termsOf = (sentence: string, itemNames: ReadonlyArray<string>): Array<Term> => {
  const items = itemNames.flatMap((name): Array<Term> => {
    const text = findWords(sentence, name)
    return text === null ? [] : [{ text, termClass: "item" }]
  })
  const terms = [
    ...items,
    ...matchesOf(numberPattern, sentence, "number"),
    ...matchesOf(timePattern, sentence, "time"),
    ...matchesOf(weekdayPattern, sentence, "weekday"),
    ...matchesOf(monthPattern, sentence, "month"),
    ...nounPhrases(sentence).map((text): Term => ({ text, termClass: "phrase" }))
  ]
  const seen = new Set<string>()
  return terms.filter((term) => {
    const key = normalizeAnswer(term.text)
    // A term said twice in the sentence would give itself away when blanked once.
    const occurrences = sentence.toLowerCase().split(term.text.toLowerCase()).length - 1
    if (key === "" || seen.has(key) || occurrences !== 1) return false
    seen.add(key)
    return true
  })
}

/** Other values of a number ("5%" -> "10%", "2%", "15%", "6%"), the unit kept: distractors the content may lack. */
const numberVariants = (text: string): Array<string> => {
  const match = /^([$€£]?)(\d+(?:[.,]\d+)?)(.*)$/s.exec(text)
  if (match === null) return []
  const [, prefix = "", digits = "", suffix = ""] = match
  const value = Number(digits.replace(",", "."))
  if (!Number.isFinite(value)) return []
  const percent = /%|percent/i.test(suffix)
  const candidates = [value * 2, value * 3, Math.round(value / 2), value + 1, value + 10, value * 10]
  return candidates
    .filter((candidate) => candidate > 0 && candidate !== value && (!percent || candidate <= 100))
    .map((candidate) => `${prefix}${Number.isInteger(candidate) ? candidate : candidate.toFixed(1)}${suffix}`)
}

const timeVariants = (text: string): Array<string> => {
  const [hours = "0", minutes = "00"] = text.split(":")
  const hour = Number(hours)
  return [1, -1, 2, -2, 3].map((shift) => `${String((hour + shift + 24) % 24).padStart(hours.length, "0")}:${minutes}`)
}

/**
 * The pool a term's distractors come from: its class, and for a number its
 * unit too ("3 levels" is offered among levels, "1500 kg" among weights).
 */
export const poolKey = (term: Term): string =>
  term.termClass === "number" ? `number:${term.text.replace(/^[$€£]?\d+(?:[.,]\d+)?\s?/, "").toLowerCase()}` : term.termClass

/** Values of the term's class that do not come from the content: numbers nearby, other days and months. */
export const generatedAlternatives = (term: Term): Array<string> => {
  switch (term.termClass) {
    case "number":
      return numberVariants(term.text)
    case "time":
      return timeVariants(term.text)
    case "weekday":
      return weekdays
    case "month":
      return months
    case "item":
    case "phrase":
      return []
  }
}
