import { Schema } from "effect"

/** `{id, name}`: how one record names another on the wire. */
export const EntityRef = Schema.Struct({ id: Schema.String, name: Schema.String })
export type EntityRef = typeof EntityRef.Type

/** Timestamps on the wire: ISO 8601 UTC with milliseconds. Kept as strings so encoding stays cheap. */
export const Timestamp = Schema.String.annotations({
  jsonSchema: { format: "date-time" },
  description: "ISO 8601 in UTC with milliseconds",
  examples: ["2026-11-21T10:52:00.000Z"]
})

/**
 * A whole number of things (people, rows, days). Built by the service from
 * SQL counts, so it is published as an integer but not re-checked on every
 * encode (encoding checks are a measured cost on large pages; like
 * `Timestamp`).
 */
export const Count = Schema.Number.annotations({ jsonSchema: { type: "integer", minimum: 0 } })

/** A score: a fraction from 0 to 1 (a quiz is passed at 0.8). Built by the service, not re-checked on encode. */
export const Fraction = Schema.Number.annotations({ jsonSchema: { type: "number", minimum: 0, maximum: 1 } })
