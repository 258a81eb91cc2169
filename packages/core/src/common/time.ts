/** Timestamps on the wire: ISO 8601 UTC with milliseconds. */
export const iso = (date: Date): string => date.toISOString()
export const isoOrNull = (date: Date | null): string | null => (date === null ? null : date.toISOString())
