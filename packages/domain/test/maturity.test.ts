import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, Schema } from "effect"
import {
  addTallies,
  emptyTally,
  healthLevelOf,
  levelOf,
  levelThresholds,
  maturityLevels,
  MaturityParams,
  type MaturityTally,
  recommendationsOf,
  signalCodes,
  signalsOf
} from "@tks/domain/maturity"

/** A tally of `topics` topics where every share is `fraction` of the whole, with `perTopic` items each. */
const uniform = (topics: number, perTopic: number, fraction: number): MaturityTally => ({
  topics,
  items: topics * perTopic,
  evidencedItems: Math.round(topics * perTopic * fraction),
  ownedTopics: Math.round(topics * fraction),
  trainedTopics: Math.round(topics * fraction),
  freshTopics: Math.round(topics * fraction),
  relatedTopics: Math.round(topics * fraction)
})

describe("maturity levels", () => {
  it("no live topic is UNDOCUMENTED, whatever else is counted", () => {
    expect(levelOf(emptyTally)).toBe("UNDOCUMENTED")
    expect(levelOf({ ...emptyTally, items: 4, evidencedItems: 4 })).toBe("UNDOCUMENTED")
  })

  it("a topic with nothing written in it is below INITIAL", () => {
    expect(levelOf({ ...emptyTally, topics: 2 })).toBe("UNDOCUMENTED")
    expect(levelOf({ ...emptyTally, topics: 2, items: 2 })).toBe("INITIAL")
  })

  it("each level is the highest whose thresholds are all met", () => {
    expect(levelOf(uniform(10, 2, 0.5))).toBe("DEFINED")
    expect(levelOf(uniform(10, 2, 0.8))).toBe("MANAGED")
    expect(levelOf(uniform(10, 3, 1))).toBe("OPTIMIZED")
    // Everything else complete, but a third of the topics without an owner: DEFINED needs half owned, MANAGED 80%.
    expect(levelOf({ ...uniform(9, 3, 1), ownedTopics: 6 })).toBe("DEFINED")
    expect(levelOf({ ...uniform(9, 3, 1), ownedTopics: 4 })).toBe("INITIAL")
  })

  it("fewer topics than the health list scores stay INITIAL however complete they are", () => {
    expect(levelOf(uniform(2, 5, 1))).toBe("INITIAL")
    expect(levelOf(uniform(3, 5, 1))).toBe("OPTIMIZED")
  })

  it("the threshold table only rises from level to level, so meeting a level means meeting every one below", () => {
    const rows = [levelThresholds.INITIAL, levelThresholds.DEFINED, levelThresholds.MANAGED, levelThresholds.OPTIMIZED]
    for (let index = 1; index < rows.length; index++) {
      for (const code of signalCodes) expect(rows[index]![code] ?? 0, code).toBeGreaterThanOrEqual(rows[index - 1]![code] ?? 0)
    }
  })

  it("the health list scores a category from 3 topics and gives null below", () => {
    expect(healthLevelOf(uniform(2, 3, 1))).toBeNull()
    expect(healthLevelOf(emptyTally)).toBeNull()
    expect(healthLevelOf(uniform(3, 3, 1))).toBe("OPTIMIZED")
    expect(healthLevelOf(uniform(3, 1, 0))).toBe("INITIAL")
  })

  it("tallies add up field by field (the organization is the sum of its categories)", () => {
    const sum = addTallies(uniform(4, 2, 0.5), uniform(6, 1, 1))
    expect(sum).toEqual({ topics: 10, items: 14, evidencedItems: 10, ownedTopics: 8, trainedTopics: 8, freshTopics: 8, relatedTopics: 8 })
  })
})

describe("maturity signals", () => {
  it("each signal has its value, OPTIMIZED's target, whether it is met and the lowest level it falls short of", () => {
    const signals = signalsOf({ topics: 8, items: 20, evidencedItems: 15, ownedTopics: 8, trainedTopics: 2, freshTopics: 7, relatedTopics: 0 })
    expect(signals).toEqual([
      { code: "topicCount", value: 8, target: 3, met: true, shortOf: null },
      { code: "itemsPerTopic", value: 2.5, target: 3, met: false, shortOf: "OPTIMIZED" },
      { code: "evidenceCoverage", value: 0.75, target: 0.9, met: false, shortOf: "OPTIMIZED" },
      { code: "ownershipCoverage", value: 1, target: 1, met: true, shortOf: null },
      { code: "trainingCoverage", value: 0.25, target: 0.8, met: false, shortOf: "MANAGED" },
      { code: "freshness", value: 0.875, target: 0.8, met: true, shortOf: null },
      { code: "relatedness", value: 0, target: 0.5, met: false, shortOf: "OPTIMIZED" }
    ])
  })

  it("shares are rounded to 3 decimals and the level is decided on the rounded value the caller sees", () => {
    const [, , evidence] = signalsOf({ ...uniform(3, 3, 1), evidencedItems: 2, items: 3 })
    expect(evidence!.value).toBe(0.667)
    // 0.49975 of the items evidenced shows as 0.5 (rounded to 3 decimals), and DEFINED's 50% is met.
    expect(levelOf({ ...uniform(10, 2, 1), items: 4000, evidencedItems: 1999, trainedTopics: 0 })).toBe("DEFINED")
  })

  it("an empty tally has zero shares, not NaN", () => {
    for (const signal of signalsOf(emptyTally)) expect(Number.isFinite(signal.value), signal.code).toBe(true)
  })
})

describe("maturity recommendations", () => {
  it("one per unmet signal: what holds back the next level first, then the largest gap, ranked from 1", () => {
    // INITIAL: DEFINED needs evidence (2 of 10 = 20%, gap 0.6 of 50%) and owners (4 of 10 = 40%, gap 0.2); the rest hold back later levels.
    const tally: MaturityTally = { topics: 10, items: 20, evidencedItems: 4, ownedTopics: 4, trainedTopics: 0, freshTopics: 4, relatedTopics: 0 }
    expect(levelOf(tally)).toBe("INITIAL")
    const recommendations = recommendationsOf(tally)
    expect(recommendations.map((r) => [r.rank, r.code, r.unlocks, r.impact])).toEqual([
      [1, "evidenceCoverage", "DEFINED", "HIGH"],
      [2, "ownershipCoverage", "DEFINED", "HIGH"],
      [3, "trainingCoverage", "MANAGED", "MEDIUM"],
      [4, "freshness", "MANAGED", "MEDIUM"],
      [5, "relatedness", "OPTIMIZED", "LOW"],
      [6, "itemsPerTopic", "OPTIMIZED", "LOW"]
    ])
  })

  it("each detail names the numbers and the threshold of the level it holds back", () => {
    const tally: MaturityTally = { topics: 40, items: 80, evidencedItems: 60, ownedTopics: 28, trainedTopics: 40, freshTopics: 40, relatedTopics: 40 }
    const [owners] = recommendationsOf(tally)
    expect(owners).toEqual({
      rank: 1,
      code: "ownershipCoverage",
      title: "Give topics an owner",
      detail: "12 of 40 topics have no responsible or accountable owner; 80% need one.",
      impact: "HIGH",
      unlocks: "MANAGED"
    })
  })

  it("an UNDOCUMENTED category is told to document topics first", () => {
    const [first] = recommendationsOf(emptyTally)
    expect(first).toMatchObject({ rank: 1, code: "topicCount", unlocks: "INITIAL", impact: "HIGH" })
    expect(first!.detail).toBe("0 of the 1 topics needed are documented.")
  })

  it("at OPTIMIZED there is nothing to recommend", () => {
    expect(levelOf(uniform(5, 3, 1))).toBe("OPTIMIZED")
    expect(recommendationsOf(uniform(5, 3, 1))).toEqual([])
  })

  it("every level but OPTIMIZED has something to do, and every recommendation points above the current level", () => {
    for (const fraction of [0, 0.3, 0.5, 0.8, 0.95]) {
      const tally = uniform(6, 2, fraction)
      const level = levelOf(tally)
      const recommendations = recommendationsOf(tally)
      expect(recommendations.length > 0, `${fraction}`).toBe(level !== "OPTIMIZED")
      for (const r of recommendations) expect(maturityLevels.indexOf(r.unlocks)).toBeGreaterThan(maturityLevels.indexOf(level))
    }
  })
})

describe("GET /v1/maturity parameters", () => {
  const decode = Schema.decodeUnknownEither(MaturityParams)

  it("categorySlug is optional and takes the 14 slugs; anything else is refused naming them", () => {
    expect(decode({})).toEqual(Either.right({}))
    expect(decode({ categorySlug: "engineering" })).toEqual(Either.right({ categorySlug: "engineering" }))
    const refused = decode({ categorySlug: "Engineering" })
    expect(Either.isLeft(refused)).toBe(true)
  })

  it("publishes a JSON Schema with the 14 slugs for the tool interface", () => {
    const schema = JSONSchema.make(Schema.typeSchema(MaturityParams))
    expect(schema).toMatchObject({ type: "object", required: [], properties: { categorySlug: { type: "string" } } })
    expect(JSON.stringify(schema)).toContain('"enum":["strategy","sales"')
  })
})
