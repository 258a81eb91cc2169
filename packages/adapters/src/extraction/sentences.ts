import nlp from "compromise"
import type { Block } from "./markdown-blocks.js"
import { definedTerm, plainText, withoutDiscourse } from "./plain-text.js"

/**
 * Sentences of a block, located in the markdown, and what a cheap look at
 * them shows. compromise splits the sentences (its tokenizer only: fast) and
 * later tags the few candidates worth a closer look (`tagged`): tagging every
 * sentence of a 500,000-character document would take many seconds.
 */
export interface Sentence {
  /** The sentence's range in the markdown; `quote` is exactly that text. */
  readonly start: number
  readonly end: number
  readonly quote: string
  readonly plain: string
  readonly words: number
  readonly block: Block
  /** 0 for a block's first sentence. */
  readonly indexInBlock: number
}

const maxSentence = 3000

const stringsOf = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : []

/**
 * The sentences of `block`. Line breaks are read as spaces (compromise would
 * otherwise cut a hard-wrapped sentence at each line); the replacement keeps
 * every offset, so a sentence found in the flattened text is at the same
 * place in the markdown.
 */
export const sentencesOf = (markdown: string, block: Block): Array<Sentence> => {
  const raw = markdown.slice(block.start, block.end)
  const flat = raw.replace(/[\r\n]/g, " ")
  const sentences: Array<Sentence> = []
  let cursor = 0
  for (const text of stringsOf(nlp.tokenize(flat).out("array"))) {
    const trimmed = text.trim()
    if (trimmed === "") continue
    const at = flat.indexOf(trimmed, cursor)
    // compromise returns the text it was given; a sentence it altered is skipped rather than misplaced.
    if (at === -1) continue
    cursor = at + trimmed.length
    // Over this length a "sentence" is a run-on line (a table dump, a log); it is never an item, and
    // markup removal on it would cost time for nothing.
    if (trimmed.length > maxSentence) continue
    const quote = raw.slice(at, cursor)
    const plain = plainText(quote)
    // Punctuation or markup alone ("#", "---", "*") is not a sentence.
    if (!/[\p{L}\p{N}]/u.test(plain)) continue
    sentences.push({
      start: block.start + at,
      end: block.start + cursor,
      quote,
      plain,
      words: plain.split(" ").length,
      block,
      indexInBlock: sentences.length
    })
  }
  return sentences
}

const normative =
  /\b(must|shall|should|required|requires?|mandatory|may not|do not|don[’']t|cannot|can ?not|never|always|prohibited|forbidden|not (?:allowed|permitted)|(?:is|are) (?:not )?permitted|obliged|obligated|needs? to|ha(?:ve|s) to|is responsible for|are responsible for)\b/i
const strongNormative = /\b(must|shall|required|mandatory|prohibited|forbidden|never|may not|cannot|not (?:allowed|permitted))\b/i
const dateWords =
  /\b(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|daily|weekly|monthly|quarterly|annually|yearly|(?:19|20)\d\d)\b/i
const money = /[$€£¥]\s?\d|\d\s?(?:%|percent\b)|\b(?:usd|eur|gbp)\b/i
const digit = /\d/
/** A capitalised word that does not open the sentence: often a name, product or place. */
const innerCapital = /\s(?!I\b)[A-Z][A-Za-z0-9]+/

export interface Features {
  readonly normative: boolean
  readonly strong: boolean
  readonly number: boolean
  readonly date: boolean
  readonly money: boolean
  readonly properNoun: boolean
  readonly definition: string | null
  readonly question: boolean
}

/** What regular expressions see; `properNoun` is a guess until `tagged` confirms it. */
export const featuresOf = (plain: string): Features => ({
  normative: normative.test(plain),
  strong: strongNormative.test(plain),
  number: digit.test(plain),
  date: dateWords.test(plain),
  money: money.test(plain),
  properNoun: innerCapital.test(plain),
  definition: definedTerm(plain),
  question: /\?["')\]]*$/.test(plain)
})

export interface Tags {
  readonly imperative: boolean
  readonly properNoun: boolean
  readonly value: boolean
  readonly date: boolean
}

/**
 * Verbs compromise reads as nouns at the start of a sentence ("Book travel",
 * "Email the team"): an instruction when a function word follows.
 */
const verbFirst =
  /^(?:book|email|review|call|contact|file|log|text|record|request|schedule|order|ship|store|access|back|test|plan|list|mark|note|place|post|return|share|visit|use|copy|label|wear|report|print|update|escalate|notify)\s+(?:the|a|an|your|all|any|each|every|our|their|this|that|these|those|it|them|up|in|out|on|off|to|with|for|new|only)\b/i

/** Common instruction verbs, for sentences past the tagging budget: a verb first and no verb of a subject after it. */
const instructionVerb =
  /^(?:please\s+|always\s+|never\s+)?(?:add|allow|apply|approve|ask|assign|attach|avoid|book|call|cancel|check|choose|click|close|collect|complete|configure|confirm|connect|contact|copy|create|delete|disable|download|email|enable|ensure|enter|fill|find|follow|forward|give|go|include|inform|install|invite|keep|label|lock|log|make|mark|move|notify|obtain|open|order|pay|prepare|press|print|provide|read|record|register|remove|renew|replace|report|request|reset|restart|return|review|run|save|schedule|select|send|set|share|sign|start|stop|store|submit|switch|take|tell|test|turn|type|update|upload|use|verify|visit|wait|walk|wear|welcome|write)\b(?!\s+(?:is|are|was|were|will|can|has|have|had|should|must|may|might|would|could)\b)/i
const numberWord = /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion)\b/i

/** compromise's part-of-speech tags for one sentence. */
export const tagged = (plain: string): Tags => {
  const opening = withoutDiscourse(plain)
  const doc = nlp(opening)
  return {
    // A sentence that opens with a verb's base form has no subject: an instruction ("Always lock ...", "Please submit ...").
    imperative: doc.has("^(#Adverb|please)? (#Imperative|#Infinitive)") || verbFirst.test(opening),
    properNoun: doc.not("^.").has("#ProperNoun"),
    value: doc.has("#Value"),
    date: doc.has("#Date")
  }
}

/** The same questions answered by patterns alone: for sentences beyond the document's tagging budget. */
export const guessed = (plain: string, features: Features): Tags => {
  const opening = withoutDiscourse(plain)
  return {
    imperative: instructionVerb.test(opening) || verbFirst.test(opening),
    properNoun: features.properNoun,
    value: features.number || features.money || numberWord.test(plain),
    date: features.date
  }
}
