import type { ItemKind } from "@tks/domain/knowledge"
import { type Block, blocksOf } from "./markdown-blocks.js"
import { isStructuralHeading } from "./outline.js"
import { clip, headingName, plainText, shortTitle } from "./plain-text.js"
import { type Features, featuresOf, guessed, type Sentence, sentencesOf, tagged } from "./sentences.js"

/**
 * One chapter's candidate items, scored. Numbered lists become a process
 * with its steps as children; sentences with a normative modal become
 * policies; instructions (imperative sentences) become processes, or
 * policies under a heading or lead-in that states rules; informative
 * sentences (numbers, dates, names, definitions) become facts.
 */
export interface Candidate {
  readonly kind: ItemKind
  readonly name: string
  readonly body: string | null
  readonly quote: string
  readonly score: number
  /** Where the quote starts in the markdown: document order. */
  readonly order: number
  readonly children: ReadonlyArray<Candidate>
}

export interface ChapterItems {
  /** How many sentences compromise tagged. */
  readonly tagged: number
  readonly candidates: ReadonlyArray<Candidate>
  /** The chapter's first prose sentence, for the topic's description. */
  readonly firstSentence: string | null
  /** Prose sentences the summary may choose from (the first few of the chapter). */
  readonly prose: ReadonlyArray<Sentence>
}

/** Sentences considered per chapter (the best-looking by the cheap score): bounds the work on a huge chapter. */
const consideredPerChapter = 60
const stepsPerProcess = 40
const maxQuote = 4000
const prosePerChapter = 20
const rulesHeading = /\b(polic(y|ies)|rules?|requirements?|standards?|guidelines?|do'?s|don'?ts|prohibit\w*|mandatory|compliance)\b/i

const clamp = (score: number) => Math.round(Math.min(0.95, Math.max(0.05, score)) * 100) / 100

const signalScore = (features: Features, words: number) =>
  (features.definition !== null ? 0.15 : 0) +
  (features.number ? 0.08 : 0) +
  (features.date ? 0.05 : 0) +
  (features.money ? 0.05 : 0) +
  (features.properNoun ? 0.04 : 0) +
  (words >= 8 && words <= 35 ? 0.08 : 0) -
  (words < 5 || words > 50 ? 0.1 : 0)

/** A block's text without surrounding space, as a verbatim range. */
const trimmedRange = (markdown: string, block: Block) => {
  const raw = markdown.slice(block.start, block.end)
  const lead = raw.length - raw.trimStart().length
  const text = raw.trim()
  return { start: block.start + lead, text }
}

interface ListRun {
  readonly steps: Array<Block>
  /** The last sentence of the paragraph just before the list, when it ends with a colon ("Do this:"). */
  readonly leadIn: Sentence | null
}

const runsOf = (markdown: string, blocks: ReadonlyArray<Block>) => {
  const runs = new Map<number, ListRun>()
  blocks.forEach((block, index) => {
    if (block.kind !== "ordered" && block.kind !== "bullet") return
    if (runs.has(block.run)) return
    const before = blocks[index - 1]
    const intro = before?.kind === "paragraph" ? sentencesOf(markdown, before).at(-1) : undefined
    runs.set(block.run, { steps: [], leadIn: intro !== undefined && intro.plain.endsWith(":") ? intro : null })
  })
  for (const block of blocks) {
    if (block.kind !== "ordered") continue
    const run = runs.get(block.run)!
    const first = run.steps[0]
    if (first === undefined || block.indent <= first.indent) run.steps.push(block)
  }
  return runs
}

const stepOf = (markdown: string, block: Block): Candidate => {
  const { start, text } = trimmedRange(markdown, block)
  const first = sentencesOf(markdown, block)[0]
  const quote = text.length <= maxQuote ? text : first?.quote ?? text.slice(0, maxQuote)
  const plain = plainText(quote)
  return {
    kind: "process",
    name: shortTitle(first?.plain ?? plain),
    body: clip(plain, maxQuote),
    quote,
    score: clamp(0.55 + (plain.split(" ").length >= 3 ? 0.1 : 0)),
    order: start,
    children: []
  }
}

/** The heading just above a list, inside the chapter, when it names a subject ("Pre-shift inspection", not "Steps"). */
const headingAbove = (markdown: string, blocks: ReadonlyArray<Block>, first: Block): string | null => {
  let heading: Block | undefined
  for (const block of blocks) {
    if (block.start >= first.start) break
    if (block.kind === "heading") heading = block
  }
  if (heading === undefined) return null
  const name = headingName(markdown.slice(heading.start, heading.end))
  return name === "" || isStructuralHeading(name) ? null : name
}

const processOf = (markdown: string, run: ListRun, procedureName: string): Candidate => {
  const steps = run.steps.slice(0, stepsPerProcess).map((block) => stepOf(markdown, block))
  const first = steps[0]!
  if (steps.length === 1) return first
  const leadIn = run.leadIn
  return {
    kind: "process",
    name: leadIn !== null ? shortTitle(leadIn.plain) : procedureName,
    body: leadIn?.plain.replace(/:$/, "") ?? null,
    quote: leadIn?.quote ?? first.quote,
    score: clamp(0.6 + (leadIn !== null ? 0.1 : 0) + (steps.length >= 3 ? 0.1 : 0)),
    order: leadIn?.start ?? first.order,
    children: steps
  }
}

export interface ChapterContext {
  readonly headline: string | null
  /**
   * What a numbered list without a lead-in is called when no heading inside
   * the chapter names it: its section's heading, or the topic it joins.
   */
  readonly procedureName: string
  readonly documentName: string
  /** How many of the chapter's best sentences compromise may tag; the rest are read by patterns. */
  readonly tagLimit: number
}

export const chapterItems = (
  markdown: string,
  range: { readonly start: number; readonly end: number },
  { documentName, headline, procedureName, tagLimit }: ChapterContext
): ChapterItems => {
  const withHeadings = blocksOf(markdown, range.start, range.end)
  const blocks = withHeadings.filter((block) => block.kind !== "heading")
  const runs = runsOf(markdown, blocks)
  const stepBlocks = new Set([...runs.values()].flatMap((run) => run.steps))
  // In a policy or a standard, an instruction is a rule ("Lock your screen"); in a runbook it is a step.
  const rulesTopic = rulesHeading.test(headline ?? "") || rulesHeading.test(documentName)

  const sentences = blocks.filter((block) => !stepBlocks.has(block)).flatMap((block) => sentencesOf(markdown, block))
  const leadIns = new Set([...runs.values()].map((run) => run.leadIn?.start))
  const prose = sentences.filter((sentence) => sentence.block.kind === "paragraph")
  const span = Math.max(1, range.end - range.start)

  // Boilerplate said twice is one candidate: the first place it is said.
  const seen = new Set<string>()
  const scored = sentences
    .filter((sentence) => {
      const key = sentence.plain.toLowerCase()
      if (leadIns.has(sentence.start) || seen.has(key)) return false
      seen.add(key)
      return true
    })
    .map((sentence) => {
      const features = featuresOf(sentence.plain)
      const early = 0.05 * (1 - (sentence.start - range.start) / span)
      const cheap = (features.normative ? 0.3 : 0) + (sentence.block.kind === "bullet" ? 0.05 : 0) +
        signalScore(features, sentence.words) + early
      return { sentence, features, cheap }
    })
    .filter(({ features, sentence }) => !features.question && sentence.words >= 3 && sentence.words <= 80)
    .sort((a, b) => b.cheap - a.cheap || a.sentence.start - b.sentence.start)
    .slice(0, consideredPerChapter)

  const candidates: Array<Candidate> = []
  for (const [rank, { cheap, features, sentence }] of scored.entries()) {
    const run = sentence.block.kind === "bullet" ? runs.get(sentence.block.run) : undefined
    const ruleLeadIn = run?.leadIn !== null && run?.leadIn !== undefined && featuresOf(run.leadIn.plain).normative
    const tags = rank < tagLimit ? tagged(sentence.plain) : guessed(sentence.plain, features)
    const instruction = tags.imperative
    const informative = features.definition !== null || features.money || tags.value || tags.date || tags.properNoun
    const kind: ItemKind | null = features.normative || ruleLeadIn || (instruction && rulesTopic)
      ? "policy"
      : instruction
      ? "process"
      : informative
      ? "fact"
      : null
    if (kind === null) continue
    const base = kind === "policy" ? 0.5 + (features.strong ? 0.1 : 0) : kind === "process" ? 0.5 : 0.4
    const body = ruleLeadIn && run?.leadIn ? `${run.leadIn.plain} ${sentence.plain}` : sentence.plain
    candidates.push({
      kind,
      name: kind === "fact" && features.definition !== null ? features.definition : shortTitle(sentence.plain),
      body: clip(body, maxQuote),
      quote: sentence.quote.slice(0, maxQuote),
      score: clamp(base + cheap - (features.normative ? 0.3 : 0)),
      order: sentence.start,
      children: []
    })
  }
  for (const run of runs.values()) {
    const first = run.steps[0]
    if (first !== undefined) {
      candidates.push(processOf(markdown, run, headingAbove(markdown, withHeadings, first) ?? procedureName))
    }
  }

  // A lead-in ("Follow these steps:") introduces, it does not describe.
  const describing = prose.find((sentence) => !sentence.plain.endsWith(":"))
  return {
    tagged: Math.min(tagLimit, scored.length),
    candidates,
    firstSentence: describing === undefined ? null : clip(describing.plain, 1000),
    prose: prose.slice(0, prosePerChapter)
  }
}
