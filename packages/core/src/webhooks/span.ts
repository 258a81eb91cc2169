/** The positions of an act's events, lowest to highest (bigint text): what one fan-out job delivers from. */
export interface FanoutSpan {
  readonly first: string
  readonly last: string
}

/** The span of `positions` (at least one), compared as numbers. */
export const spanOf = (positions: ReadonlyArray<string>): FanoutSpan => {
  let first = BigInt(positions[0]!)
  let last = first
  for (const position of positions) {
    const value = BigInt(position)
    if (value < first) first = value
    if (value > last) last = value
  }
  return { first: String(first), last: String(last) }
}
