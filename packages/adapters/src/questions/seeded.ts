import { mulberry32 } from "@tks/domain/mulberry32"

/**
 * A small seeded random source, so the local generator is deterministic: the
 * same seed draws the same numbers on every machine (no Math.random, no
 * clock). FNV-1a turns the seed text into 32 bits; mulberry32 draws from it.
 */
export interface Random {
  /** A number in [0, 1). */
  readonly next: () => number
}

const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

export const seededRandom = (seed: string): Random => {
  return { next: mulberry32(fnv1a(seed)) }
}

/** A shuffled copy (Fisher-Yates). */
export const shuffled = <A>(random: Random, items: ReadonlyArray<A>): Array<A> => {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1))
    const held = copy[i]!
    copy[i] = copy[j]!
    copy[j] = held
  }
  return copy
}
