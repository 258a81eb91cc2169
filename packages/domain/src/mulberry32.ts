/**
 * mulberry32: a small, fast seeded generator of numbers in [0, 1). The same
 * seed gives the same sequence on every run, so a seeded choice (questions
 * drawn locally, a fuzz run, a random test case) can be told by its seed.
 * Not for anything that must be unpredictable.
 */
export const mulberry32 = (seed: number): (() => number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
