import { mulberry32 } from "@tks/domain/mulberry32"

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

/** A seeded generator (mulberry32) with the draws the fuzz needs. */
export const rngOf = (seed: number): Rng => {
  const next = mulberry32(seed)
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
