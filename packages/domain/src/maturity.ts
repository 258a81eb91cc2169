import { Schema } from "effect"
import { Count } from "./common.js"
import { CategorySlug } from "./knowledge.js"
import { CategorySlugParam } from "./knowledge-graph.js"

/**
 * Knowledge maturity: how
 * well one category, or the whole organization, is documented, owned,
 * trained and kept current, as a level from UNDOCUMENTED to OPTIMIZED with
 * the signals it was read from and what to do next. Pure rules over a
 * tally of the live graph the caller can read (core counts it), so two
 * callers who read different parts of the graph may see different numbers.
 */

export const maturityLevels = ["UNDOCUMENTED", "INITIAL", "DEFINED", "MANAGED", "OPTIMIZED"] as const
export const MaturityLevel = Schema.Literal(...maturityLevels).annotations({
  description: "UNDOCUMENTED (no live topic) < INITIAL < DEFINED < MANAGED < OPTIMIZED"
})
export type MaturityLevel = typeof MaturityLevel.Type
type ScoredLevel = Exclude<MaturityLevel, "UNDOCUMENTED">

export const signalCodes = [
  "topicCount",
  "itemsPerTopic",
  "evidenceCoverage",
  "ownershipCoverage",
  "trainingCoverage",
  "freshness",
  "relatedness"
] as const
export const SignalCode = Schema.Literal(...signalCodes).annotations({
  description: "topicCount: live topics. itemsPerTopic: live items per topic. evidenceCoverage: share of live items with evidence " +
    "from published content. ownershipCoverage: share of topics with a RESPONSIBLE or ACCOUNTABLE duty on the topic, its space " +
    "or its category. trainingCoverage: share of topics covered by an open lesson. freshness: share of topics with evidence " +
    "from content updated in the last 365 days. relatedness: share of topics with a prerequisite or related topic."
})
export type SignalCode = typeof SignalCode.Type

/** A category is scored in the health list only from this many live readable topics: fewer say too little about it. */
export const MIN_TOPICS_TO_SCORE = 3
/** Evidence counts as fresh while its content was updated within this many days: a yearly review is the usual policy cycle. */
export const FRESHNESS_DAYS = 365

/**
 * What each level needs, signal by signal (a missing signal has no
 * requirement at that level). Each row repeats and raises the one below, so
 * the highest level whose row is met is also the first whose row is not
 * passed over: the level rule and the recommendations read the same table.
 */
export const levelThresholds: Readonly<Record<ScoredLevel, Partial<Record<SignalCode, number>>>> = {
  // Something is written down: a topic with at least one item in it.
  INITIAL: { topicCount: 1, itemsPerTopic: 1 },
  // A body to rely on: as many topics as the health list scores, a few items each, and half of it backed and owned.
  DEFINED: { topicCount: MIN_TOPICS_TO_SCORE, itemsPerTopic: 2, evidenceCoverage: 0.5, ownershipCoverage: 0.5 },
  // Looked after: most of it backed and owned, and half of it taught and reviewed within the year.
  MANAGED: {
    topicCount: MIN_TOPICS_TO_SCORE,
    itemsPerTopic: 2,
    evidenceCoverage: 0.75,
    ownershipCoverage: 0.8,
    trainingCoverage: 0.5,
    freshness: 0.5
  },
  // Improved continuously: nearly all backed, every topic owned, most taught and current, and topics linked to each other.
  OPTIMIZED: {
    topicCount: MIN_TOPICS_TO_SCORE,
    itemsPerTopic: 3,
    evidenceCoverage: 0.9,
    ownershipCoverage: 1,
    trainingCoverage: 0.8,
    freshness: 0.8,
    relatedness: 0.5
  }
}
const scoredLevels: ReadonlyArray<ScoredLevel> = ["INITIAL", "DEFINED", "MANAGED", "OPTIMIZED"]

/** What core counts over the live graph the caller can read, for one category or the organization. */
export interface MaturityTally {
  readonly topics: number
  readonly items: number
  /** Live items with evidence from published content the caller can read. */
  readonly evidencedItems: number
  /** Topics reached by a RESPONSIBLE or ACCOUNTABLE duty on the topic, its space or its category. */
  readonly ownedTopics: number
  /** Topics covered by an open lesson the caller can read (lesson_topics). */
  readonly trainedTopics: number
  /** Topics with such evidence from content updated in the last FRESHNESS_DAYS. */
  readonly freshTopics: number
  /** Topics with a prerequisite or related topic the caller can read. */
  readonly relatedTopics: number
}

export const emptyTally: MaturityTally = {
  topics: 0,
  items: 0,
  evidencedItems: 0,
  ownedTopics: 0,
  trainedTopics: 0,
  freshTopics: 0,
  relatedTopics: 0
}

export const addTallies = (a: MaturityTally, b: MaturityTally): MaturityTally => ({
  topics: a.topics + b.topics,
  items: a.items + b.items,
  evidencedItems: a.evidencedItems + b.evidencedItems,
  ownedTopics: a.ownedTopics + b.ownedTopics,
  trainedTopics: a.trainedTopics + b.trainedTopics,
  freshTopics: a.freshTopics + b.freshTopics,
  relatedTopics: a.relatedTopics + b.relatedTopics
})

export const MaturitySignal = Schema.Struct({
  code: SignalCode,
  value: Schema.Number.annotations({
    description: "topicCount: a count; itemsPerTopic: an average (2 decimals); the others: a share from 0 to 1 (3 decimals)"
  }),
  target: Schema.Number.annotations({ description: "What OPTIMIZED needs of this signal" }),
  met: Schema.Boolean.annotations({ description: "value reaches target" }),
  shortOf: Schema.NullOr(MaturityLevel).annotations({
    description: "The lowest level this signal's value falls short of; null when met"
  })
}).annotations({ identifier: "MaturitySignal" })
export type MaturitySignal = typeof MaturitySignal.Type

export const RecommendationImpact = Schema.Literal("HIGH", "MEDIUM", "LOW").annotations({
  description: "HIGH: it holds back the next level; MEDIUM: the level after; LOW: a later one"
})
export type RecommendationImpact = typeof RecommendationImpact.Type

export const MaturityRecommendation = Schema.Struct({
  rank: Count.annotations({ description: "1 first: what holds back the lowest level, then the largest gap" }),
  code: SignalCode,
  title: Schema.String,
  detail: Schema.String.annotations({ description: "A sentence with the numbers behind it" }),
  impact: RecommendationImpact,
  unlocks: MaturityLevel.annotations({ description: "The level this signal holds back" })
}).annotations({ identifier: "MaturityRecommendation" })
export type MaturityRecommendation = typeof MaturityRecommendation.Type

/** How a category is named in a maturity read. */
export const MaturityCategory = Schema.Struct({ slug: CategorySlug, name: Schema.String })

/** GET /v1/maturity. */
export const Maturity = Schema.Struct({
  category: Schema.NullOr(MaturityCategory).annotations({ description: "The category read, or null for the whole organization" }),
  level: MaturityLevel,
  signals: Schema.Array(MaturitySignal),
  recommendations: Schema.Array(MaturityRecommendation).annotations({ description: "Ranked; empty at OPTIMIZED" })
}).annotations({ identifier: "Maturity" })
export type Maturity = typeof Maturity.Type

/** GET /v1/category-health: one of the 14 rows. */
export const CategoryHealth = Schema.Struct({
  slug: CategorySlug,
  name: Schema.String,
  level: Schema.NullOr(MaturityLevel).annotations({
    description: `null when the caller can read fewer than ${MIN_TOPICS_TO_SCORE} live topics in it (too few to score)`
  }),
  topicCount: Count.annotations({ description: "Live topics of the category the caller can read" })
}).annotations({ identifier: "CategoryHealth" })
export type CategoryHealth = typeof CategoryHealth.Type

/** GET /v1/maturity parameters; an unknown categorySlug is a 400 naming the 14 slugs. */
export const MaturityParams = Schema.Struct({
  categorySlug: Schema.optional(
    CategorySlugParam.annotations({ description: "One category's maturity; omitted: the whole organization's" })
  )
})
export type MaturityParams = typeof MaturityParams.Type

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals
const share = (part: number, whole: number) => (whole === 0 ? 0 : round(part / whole, 3))

/** Each signal's value, as the caller sees it (rounded); levels are decided on these values. */
export const signalValues = (tally: MaturityTally): Readonly<Record<SignalCode, number>> => ({
  topicCount: tally.topics,
  itemsPerTopic: tally.topics === 0 ? 0 : round(tally.items / tally.topics, 2),
  evidenceCoverage: share(tally.evidencedItems, tally.items),
  ownershipCoverage: share(tally.ownedTopics, tally.topics),
  trainingCoverage: share(tally.trainedTopics, tally.topics),
  freshness: share(tally.freshTopics, tally.topics),
  relatedness: share(tally.relatedTopics, tally.topics)
})

const meets = (values: Readonly<Record<SignalCode, number>>, level: ScoredLevel) =>
  signalCodes.every((code) => values[code] >= (levelThresholds[level][code] ?? 0))

/** The lowest level whose threshold for `code` the value falls short of; null when every level's is met. */
const shortOf = (code: SignalCode, value: number): ScoredLevel | null =>
  scoredLevels.find((level) => value < (levelThresholds[level][code] ?? 0)) ?? null

/** UNDOCUMENTED with no live topic; otherwise the highest level whose thresholds are all met (every level below it is met too). */
export const levelOf = (tally: MaturityTally): MaturityLevel => {
  if (tally.topics === 0) return "UNDOCUMENTED"
  const values = signalValues(tally)
  let reached: MaturityLevel = "UNDOCUMENTED"
  for (const level of scoredLevels) {
    if (!meets(values, level)) break
    reached = level
  }
  return reached
}

/** The health list's level: null below MIN_TOPICS_TO_SCORE topics. */
export const healthLevelOf = (tally: MaturityTally): MaturityLevel | null =>
  tally.topics < MIN_TOPICS_TO_SCORE ? null : levelOf(tally)

export const signalsOf = (tally: MaturityTally): ReadonlyArray<MaturitySignal> => {
  const values = signalValues(tally)
  return signalCodes.map((code) => {
    const target = levelThresholds.OPTIMIZED[code] ?? 0
    return { code, value: values[code], target, met: values[code] >= target, shortOf: shortOf(code, values[code]) }
  })
}

const percent = (value: number) => `${Math.round(value * 100)}%`

const advice: Record<SignalCode, { readonly title: string; readonly detail: (t: MaturityTally, need: number) => string }> = {
  topicCount: {
    title: "Document more topics",
    detail: (t, need) => `${t.topics} of the ${need} topics needed are documented.`
  },
  itemsPerTopic: {
    title: "Write down more of each topic",
    detail: (t, need) =>
      `${t.items} items across ${t.topics} topics is ${t.topics === 0 ? 0 : round(t.items / t.topics, 2)} per topic; ${need} are needed.`
  },
  evidenceCoverage: {
    title: "Back items with evidence",
    detail: (t, need) =>
      `${t.items - t.evidencedItems} of ${t.items} items have no evidence from published content; ${percent(need)} need it.`
  },
  ownershipCoverage: {
    title: "Give topics an owner",
    detail: (t, need) =>
      `${t.topics - t.ownedTopics} of ${t.topics} topics have no responsible or accountable owner; ${percent(need)} need one.`
  },
  trainingCoverage: {
    title: "Cover topics with lessons",
    detail: (t, need) => `${t.topics - t.trainedTopics} of ${t.topics} topics are taught by no open lesson; ${percent(need)} need one.`
  },
  freshness: {
    title: "Review the source content",
    detail: (t, need) =>
      `${t.topics - t.freshTopics} of ${t.topics} topics have no evidence from content updated in the last ${FRESHNESS_DAYS} days; ${
        percent(need)
      } need it.`
  },
  relatedness: {
    title: "Link related topics",
    detail: (t, need) => `${t.topics - t.relatedTopics} of ${t.topics} topics have no prerequisite or related topic; ${percent(need)} need one.`
  }
}

const impactOf = (current: MaturityLevel, unlocks: MaturityLevel): RecommendationImpact => {
  const steps = maturityLevels.indexOf(unlocks) - maturityLevels.indexOf(current)
  return steps <= 1 ? "HIGH" : steps === 2 ? "MEDIUM" : "LOW"
}

/**
 * One recommendation per signal short of OPTIMIZED: first those holding back
 * the lowest level (the next one first), then the largest gap to that
 * level's threshold, relative to it, so a signal far from its mark comes
 * before one almost there. Empty at OPTIMIZED.
 */
export const recommendationsOf = (tally: MaturityTally): ReadonlyArray<MaturityRecommendation> => {
  const level = levelOf(tally)
  const values = signalValues(tally)
  const open = signalCodes.flatMap((code) => {
    const unlocks = shortOf(code, values[code])
    if (unlocks === null) return []
    const need = levelThresholds[unlocks][code] ?? 0
    return [{ code, unlocks, need, gap: (need - values[code]) / need }]
  })
  open.sort((a, b) => maturityLevels.indexOf(a.unlocks) - maturityLevels.indexOf(b.unlocks) || b.gap - a.gap)
  return open.map((entry, index) => ({
    rank: index + 1,
    code: entry.code,
    title: advice[entry.code].title,
    detail: advice[entry.code].detail(tally, entry.need),
    impact: impactOf(level, entry.unlocks),
    unlocks: entry.unlocks
  }))
}

/** The maturity read of one tally. */
export const assess = (tally: MaturityTally) => ({
  level: levelOf(tally),
  signals: signalsOf(tally),
  recommendations: recommendationsOf(tally)
})
