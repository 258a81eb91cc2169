import { Effect, Layer } from "effect"
import type { ItemKind } from "@tks/domain/knowledge"
import { normalizeAnswer, type QuizDifficulty, type StoredQuestion } from "@tks/domain/quiz"
import { QuestionGenerationFailed, QuestionGenerator, type QuestionInput, type QuestionItem } from "./port.js"
import { type Random, seededRandom, shuffled } from "./seeded.js"
import { type QuizSentence, quizSentences } from "./sentences.js"
import { generatedAlternatives, poolKey, type Term, termsOf } from "./terms.js"

/**
 * The local question generator: offline and deterministic (the same input
 * and seed give the same questions; another seed, another selection and
 * order). Questions come from the content's ranked sentences: a cloze blanks
 * a key term (an item's name, a number, a time, a day, a noun phrase); a
 * multiple-choice question offers that term among other terms of the same
 * class from the same content (numbers nearby, other days when the content
 * has too few). Items also give "which of these is a policy?" questions,
 * with other items' names as the wrong choices.
 *
 * Difficulty sets the number of choices and the share of cloze questions
 * (typed answers are harder than recognised ones).
 */
const difficulties: Record<QuizDifficulty, { readonly choices: number; readonly clozeShare: number }> = {
  SIMPLE: { choices: 3, clozeShare: 0 },
  MODERATE: { choices: 4, clozeShare: 0.4 },
  CHALLENGING: { choices: 4, clozeShare: 0.6 },
  ADVANCED: { choices: 5, clozeShare: 0.8 }
}

const blank = "_____"

type Draft = Omit<StoredQuestion, "number">

interface Candidate {
  readonly score: number
  readonly answer: string
  /** The question as a cloze, or null when it can only be multiple choice. */
  readonly cloze: Draft | null
  /** The question with `choices - 1` wrong choices, or null when there are too few. */
  readonly choice: (random: Random, choices: number) => Draft | null
}

const unique = (values: ReadonlyArray<string>): Array<string> => {
  const seen = new Set<string>()
  return values.filter((value) => {
    const key = normalizeAnswer(value)
    if (key === "" || seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** `needed` wrong choices for `answer`: the content's own terms of its class first, then generated ones; none the sentence already says. */
const distractors = (random: Random, answer: string, pool: ReadonlyArray<string>, extra: ReadonlyArray<string>, sentence: string, needed: number) => {
  const avoid = normalizeAnswer(sentence)
  const ok = (value: string) => normalizeAnswer(value) !== normalizeAnswer(answer) && !avoid.includes(normalizeAnswer(value))
  const picked = unique([...shuffled(random, pool.filter(ok)), ...extra.filter(ok)]).slice(0, needed)
  return picked.length === needed ? picked : null
}

/**
 * A name or phrase offered in a sentence's blank takes the answer's initial
 * case ("canary step" mid-sentence, "Rollout checklist" at its start), so the
 * case of a choice does not give the answer away.
 */
const inCaseOf = (answer: string) => (value: string): string => {
  const first = answer.charAt(0)
  if (first.toLowerCase() === first.toUpperCase()) return value
  return first === first.toUpperCase()
    ? value.charAt(0).toUpperCase() + value.slice(1)
    : /^\p{Lu}\p{Ll}/u.test(value) ? value.charAt(0).toLowerCase() + value.slice(1) : value
}

const withChoices = (random: Random, draft: Omit<Draft, "choices" | "kind">, wrong: ReadonlyArray<string> | null): Draft | null =>
  wrong === null ? null : { ...draft, kind: "multiple_choice", choices: shuffled(random, [draft.correctAnswer, ...wrong]) }

const sentenceCandidate = (
  title: string,
  sentence: QuizSentence,
  term: Term,
  pools: ReadonlyMap<string, ReadonlyArray<string>>
): Candidate => {
  const blanked = sentence.text.replace(term.text, blank)
  const explanation = `${sentence.headline === null ? `From "${title}"` : `From "${title}", ${sentence.headline}`}: ${sentence.text}`
  const base = { correctAnswer: term.text, explanation, topicId: sentence.topicId }
  return {
    score: sentence.score,
    answer: term.text,
    cloze: { ...base, kind: "cloze", question: `Fill in the blank: ${blanked}`, choices: [] },
    choice: (random, choices) =>
      withChoices(
        random,
        { ...base, question: `Which answer completes the sentence? ${blanked}` },
        distractors(random, term.text, pools.get(poolKey(term)) ?? [], generatedAlternatives(term), sentence.text, choices - 1)
          ?.map(inCaseOf(term.text)) ?? null
      )
  }
}

const kindWords: Record<ItemKind, string> = { policy: "a policy (a rule to follow)", process: "a process (a way of doing something)", fact: "a fact" }

/** "Which of these is a policy?": the item among items of other kinds. */
const kindCandidate = (title: string, item: QuestionItem, items: ReadonlyArray<QuestionItem>): Candidate => ({
  score: 0.35,
  answer: item.name,
  cloze: null,
  choice: (random, choices) =>
    withChoices(
      random,
      {
        question: `In "${title}", which of these is ${kindWords[item.kind]}?`,
        correctAnswer: item.name,
        explanation: `${item.name} is ${kindWords[item.kind]}${item.body === null ? "." : `: ${item.body}`}`,
        topicId: item.topicId
      },
      distractors(random, item.name, items.filter((other) => other.kind !== item.kind).map((other) => other.name), [], "", choices - 1)
    )
})

const candidatesOf = (input: QuestionInput): Array<Candidate> => {
  const itemNames = unique(input.items.map((item) => item.name))
  const sentences = quizSentences(input).map((sentence) => ({ sentence, terms: termsOf(sentence.text, itemNames) }))
  const pools = new Map<string, Array<string>>([["item", itemNames]])
  for (const { terms } of sentences) {
    for (const term of terms) if (term.termClass !== "item") pools.set(poolKey(term), [...(pools.get(poolKey(term)) ?? []), term.text])
  }
  const fromSentences = sentences.flatMap(({ sentence, terms }) =>
    terms[0] === undefined ? [] : [sentenceCandidate(input.title, sentence, terms[0], pools)]
  )
  // An item named "... policy" would answer "which of these is a policy?" by its name.
  const fromItems = input.items.filter((item) => !new RegExp(`\\b${item.kind}`, "i").test(item.name))
  return [...fromSentences, ...fromItems.map((item) => kindCandidate(input.title, item, input.items))]
}

export const generateLocally = (input: QuestionInput) =>
  Effect.try({
    try: () => {
      const random = seededRandom(input.seed)
      const { choices, clozeShare } = difficulties[input.difficulty]
      // The seed varies the selection among sentences of about the same rank.
      const ranked = candidatesOf(input)
        .map((candidate) => ({ candidate, rank: candidate.score + random.next() * 0.25 }))
        .sort((a, b) => b.rank - a.rank)
        .map(({ candidate }) => candidate)
      const wanted = Math.max(0, Math.floor(input.count))
      let clozeLeft = Math.round(wanted * clozeShare)
      const answers = new Set<string>()
      const drafts: Array<Draft> = []
      for (const candidate of ranked) {
        if (drafts.length >= wanted) break
        const key = normalizeAnswer(candidate.answer)
        if (answers.has(key)) continue
        const asCloze = clozeLeft > 0 && candidate.cloze !== null
        const draft = asCloze ? candidate.cloze : candidate.choice(random, choices) ?? candidate.cloze
        if (draft === null) continue
        if (draft.kind === "cloze") clozeLeft--
        answers.add(key)
        drafts.push(draft)
      }
      return drafts
    },
    catch: (error) => new QuestionGenerationFailed({ reason: `local question generation failed: ${String(error)}` })
  }).pipe(
    Effect.filterOrFail(
      (drafts) => drafts.length > 0,
      () => new QuestionGenerationFailed({ reason: "the content has nothing to ask about (no usable sentences or items)" })
    ),
    Effect.map((drafts) => drafts.map((draft, index): StoredQuestion => ({ number: index + 1, ...draft }))),
    Effect.withSpan("QuestionGenerator.local")
  )

export const LocalQuestionGenerator: Layer.Layer<QuestionGenerator> = Layer.succeed(
  QuestionGenerator,
  QuestionGenerator.of({ name: "local", generate: generateLocally })
)
