/**
 * The fuzz's own choices (which mutation, which caller, which id) come from
 * one seeded generator, so a seed replays the same requests in the same
 * order. Schema values come from fast-check, seeded from this generator.
 */
export interface Rng {
  /** A number in [0, 1). */
  readonly next: () => number
  /** An integer in [0, n). */
  readonly int: (n: number) => number
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  readonly chance: (p: number) => boolean
}

/** mulberry32: small, fast and good enough to pick mutations. */
export const rngOf = (seed: number): Rng => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from nothing")
      return items[int(items.length)]!
    },
    chance: (p) => next() < p
  }
}
