import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  ASSIGNED,
  compareRankKeys,
  entryPriority,
  entryType,
  expectedMastery,
  NO_DUE_DATE,
  type QueueCandidate,
  type QueueFacts,
  QueueRankKeySchema,
  queueRankKey,
  rankQueue
} from "@tks/domain/learning-queue"

const day = 86_400_000
const now = Date.UTC(2026, 10, 23, 12, 0, 0)

const facts = (over: Partial<QueueFacts> = {}): QueueFacts => ({
  mastery: "NONE",
  expected: null,
  owed: false,
  retrainingDue: false,
  started: false,
  ...over
})

describe("expected mastery of a duty", () => {
  it("RESPONSIBLE and ACCOUNTABLE expect MASTERED, CONSULTED and INFORMED PARTIAL", () => {
    expect(expectedMastery("RESPONSIBLE", false)).toBe("MASTERED")
    expect(expectedMastery("ACCOUNTABLE", false)).toBe("MASTERED")
    expect(expectedMastery("CONSULTED", false)).toBe("PARTIAL")
    expect(expectedMastery("INFORMED", false)).toBe("PARTIAL")
  })

  it("a holder senior to a MIN_TIER duty's tier is expected to master it whatever the RACI role", () => {
    expect(expectedMastery("INFORMED", true)).toBe("MASTERED")
    expect(expectedMastery("CONSULTED", true)).toBe("MASTERED")
  })
})

describe("entry type", () => {
  it("NEW: no mastery of a topic a duty expects, or of one owed", () => {
    expect(entryType(facts({ expected: "PARTIAL" }))).toBe("NEW")
    expect(entryType(facts({ owed: true }))).toBe("NEW")
    // Started but never proven: still NEW (NEW is mastery NONE).
    expect(entryType(facts({ expected: "MASTERED", started: true }))).toBe("NEW")
  })

  it("a topic with no mastery that nothing expects and nothing owes is not in the queue", () => {
    expect(entryType(facts())).toBeNull()
    expect(entryType(facts({ started: true }))).toBeNull()
  })

  it("PARTIAL: some mastery and a lesson on it started, or owed", () => {
    expect(entryType(facts({ mastery: "PARTIAL", expected: "MASTERED", started: true }))).toBe("PARTIAL")
    expect(entryType(facts({ mastery: "PARTIAL", expected: "PARTIAL", started: true }))).toBe("PARTIAL")
    expect(entryType(facts({ mastery: "PARTIAL", owed: true }))).toBe("PARTIAL")
  })

  it("DEEPEN: some mastery, below what a duty expects, nothing started", () => {
    expect(entryType(facts({ mastery: "PARTIAL", expected: "MASTERED" }))).toBe("DEEPEN")
    expect(entryType(facts({ mastery: "PARTIAL", expected: "MASTERED", owed: true }))).toBe("DEEPEN")
  })

  it("partial mastery that meets the expectation, with nothing started or owed, is not in the queue", () => {
    expect(entryType(facts({ mastery: "PARTIAL", expected: "PARTIAL" }))).toBeNull()
    expect(entryType(facts({ mastery: "PARTIAL" }))).toBeNull()
  })

  it("RETRAINING: mastered and a retraining due, or owed again", () => {
    expect(entryType(facts({ mastery: "MASTERED", expected: "MASTERED", retrainingDue: true }))).toBe("RETRAINING")
    expect(entryType(facts({ mastery: "MASTERED", owed: true }))).toBe("RETRAINING")
  })

  it("a mastered topic with nothing due and nothing owed is not in the queue, whatever the duty expects", () => {
    expect(entryType(facts({ mastery: "MASTERED", expected: "MASTERED" }))).toBeNull()
    expect(entryType(facts({ mastery: "MASTERED", expected: "PARTIAL", started: true }))).toBeNull()
  })

  it("a retraining due on a topic not mastered is learned by its mastery's type", () => {
    expect(entryType(facts({ mastery: "NONE", expected: "PARTIAL", retrainingDue: true }))).toBe("NEW")
    expect(entryType(facts({ mastery: "PARTIAL", expected: "MASTERED", retrainingDue: true }))).toBe("DEEPEN")
  })
})

describe("priority", () => {
  const base = { type: "DEEPEN", raci: "INFORMED", required: false, dueInMs: null } as const

  it("HIGH when overdue or due within a week", () => {
    expect(entryPriority({ ...base, dueInMs: -day })).toBe("HIGH")
    expect(entryPriority({ ...base, dueInMs: 7 * day })).toBe("HIGH")
    expect(entryPriority({ ...base, dueInMs: 7 * day + 1 })).toBe("MEDIUM")
  })

  it("HIGH for a retraining due and for a RESPONSIBLE or ACCOUNTABLE duty never learned", () => {
    expect(entryPriority({ ...base, type: "RETRAINING" })).toBe("HIGH")
    expect(entryPriority({ ...base, type: "NEW", raci: "RESPONSIBLE" })).toBe("HIGH")
    expect(entryPriority({ ...base, type: "NEW", raci: "ACCOUNTABLE" })).toBe("HIGH")
    expect(entryPriority({ ...base, type: "NEW", raci: "CONSULTED" })).toBe("LOW")
  })

  it("MEDIUM when due within a month, required, or a RESPONSIBLE or ACCOUNTABLE duty", () => {
    expect(entryPriority({ ...base, dueInMs: 30 * day })).toBe("MEDIUM")
    expect(entryPriority({ ...base, dueInMs: 30 * day + 1 })).toBe("LOW")
    expect(entryPriority({ ...base, raci: ASSIGNED, type: "NEW", required: true })).toBe("MEDIUM")
    expect(entryPriority({ ...base, raci: "RESPONSIBLE", type: "DEEPEN" })).toBe("MEDIUM")
  })

  it("LOW for optional work and consulted or informed duties with no date", () => {
    expect(entryPriority({ ...base, raci: ASSIGNED, type: "NEW" })).toBe("LOW")
    expect(entryPriority({ ...base, raci: "CONSULTED", type: "PARTIAL" })).toBe("LOW")
  })
})

describe("rank key", () => {
  const entry = {
    priority: "MEDIUM",
    blocked: false,
    dueAtMs: null,
    type: "NEW",
    raci: "RESPONSIBLE",
    name: "Deployments",
    id: "topic_b"
  } as const
  const order = (...entries: ReadonlyArray<Parameters<typeof queueRankKey>[0]>) =>
    [...entries].sort((a, b) => compareRankKeys(queueRankKey(a), queueRankKey(b))).map((e) => e.id)

  it("priority first, then startable before blocked", () => {
    expect(order({ ...entry, id: "low", priority: "LOW" }, { ...entry, id: "high", priority: "HIGH" }, entry)).toEqual(["high", "topic_b", "low"])
    expect(order({ ...entry, id: "blocked", blocked: true, priority: "HIGH" }, { ...entry, id: "free", priority: "HIGH" })).toEqual(["free", "blocked"])
  })

  it("then the earliest due date, entries without one after every dated one", () => {
    expect(order({ ...entry, id: "none" }, { ...entry, id: "later", dueAtMs: now + 2 * day }, { ...entry, id: "sooner", dueAtMs: now - day }))
      .toEqual(["sooner", "later", "none"])
    expect(queueRankKey(entry)[2]).toBe(NO_DUE_DATE)
  })

  it("then type (RETRAINING, NEW, PARTIAL, DEEPEN) and RACI (assigned work, R, A, C, I)", () => {
    expect(order({ ...entry, id: "deepen", type: "DEEPEN" }, { ...entry, id: "retrain", type: "RETRAINING" }, { ...entry, id: "partial", type: "PARTIAL" }, entry))
      .toEqual(["retrain", "topic_b", "partial", "deepen"])
    expect(order({ ...entry, id: "i", raci: "INFORMED" }, { ...entry, id: "assigned", raci: ASSIGNED }, { ...entry, id: "c", raci: "CONSULTED" }, entry))
      .toEqual(["assigned", "topic_b", "c", "i"])
  })

  it("then the name without regard to case, then the id, so the order is total", () => {
    expect(order({ ...entry, id: "z", name: "billing" }, { ...entry, id: "y", name: "Audits" }, { ...entry, id: "x", name: "audits" }))
      .toEqual(["x", "y", "z"])
  })

  it("a cursor's key is checked whole: a key of the wrong shape is refused", () => {
    const good = queueRankKey(entry)
    expect(Either.isRight(Schema.decodeUnknownEither(QueueRankKeySchema)(JSON.parse(JSON.stringify(good))))).toBe(true)
    for (const bad of [[0, 0, 0, 0, 0, "a"], [3, 0, 0, 0, 0, "a", "b"], [0, 0, 1.5, 0, 0, "a", "b"], ["0", 0, 0, 0, 0, "a", "b"]]) {
      expect(Either.isLeft(Schema.decodeUnknownEither(QueueRankKeySchema)(bad)), JSON.stringify(bad)).toBe(true)
    }
  })
})

describe("the ranked queue", () => {
  const candidate = (id: string, over: Partial<QueueCandidate> = {}): QueueCandidate => ({
    id,
    name: id,
    facts: facts({ expected: "MASTERED" }),
    raci: "RESPONSIBLE",
    required: false,
    dueAtMs: null,
    blocked: false,
    ...over
  })

  it("leaves out what does not belong, types and prioritises the rest, and ranks them", () => {
    const ranked = rankQueue([
      candidate("mastered", { facts: facts({ mastery: "MASTERED", expected: "MASTERED" }) }),
      candidate("deepen", { facts: facts({ mastery: "PARTIAL", expected: "MASTERED" }) }),
      candidate("informed", { raci: "INFORMED", facts: facts({ expected: "PARTIAL" }) }),
      candidate("overdue", { raci: ASSIGNED, facts: facts({ owed: true }), required: true, dueAtMs: now - day }),
      candidate("new"),
      candidate("blocked", { blocked: true })
    ], now)
    expect(ranked.map((r) => [r.candidate.id, r.type, r.priority])).toEqual([
      ["overdue", "NEW", "HIGH"],
      ["new", "NEW", "HIGH"],
      ["blocked", "NEW", "HIGH"],
      ["deepen", "DEEPEN", "MEDIUM"],
      ["informed", "NEW", "LOW"]
    ])
    for (let i = 1; i < ranked.length; i++) expect(compareRankKeys(ranked[i - 1]!.key, ranked[i]!.key)).toBe(-1)
  })
})
