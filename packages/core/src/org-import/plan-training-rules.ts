import type { Keys } from "./keys.js"

const given = (dates: ReadonlyArray<Date | null | undefined>): Array<number> =>
  dates.flatMap((date) => (date === undefined || date === null ? [] : [date.getTime()]))

/**
 * The default of a start is the earliest of the given instants (now among
 * them), and the default of an end the latest: a default never breaks an
 * order rule, so the problems of a fixture do not depend on when it is
 * imported.
 */
export const earliest = (dates: ReadonlyArray<Date | null | undefined>): Date => new Date(Math.min(...given(dates)))
export const latest = (dates: ReadonlyArray<Date | null | undefined>): Date => new Date(Math.max(...given(dates)))

/** Records a problem at `path` when `date` is before `other` (named `otherName` in the message). */
export const notBefore = (keys: Keys, path: string, date: Date | null, otherName: string, other: Date): void => {
  if (date !== null && date < other) keys.problem(path, `${date.toISOString()} is before ${otherName} (${other.toISOString()})`)
}

/**
 * Remembers the first record of each `pair` and reports a later one: the
 * import's own reading of a unique index, so a fixture breaking it gets a
 * problem with a path instead of a failed INSERT.
 */
export class FirstOf {
  private readonly seen = new Map<string, string>()
  /** The path of the earlier record with this pair, or undefined (and this one is remembered). */
  claim(pair: string, path: string): string | undefined {
    const first = this.seen.get(pair)
    if (first === undefined) this.seen.set(pair, path)
    return first
  }
}
