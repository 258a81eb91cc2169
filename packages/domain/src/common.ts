import { Schema } from "effect"

/** `{id, name}`: how one record names another on the wire. */
export const EntityRef = Schema.Struct({ id: Schema.String, name: Schema.String })
export type EntityRef = typeof EntityRef.Type

/** Timestamps on the wire: ISO 8601 UTC with milliseconds. Kept as strings so encoding stays cheap. */
export const Timestamp = Schema.String.annotations({
  format: "date-time",
  description: "ISO 8601 in UTC with milliseconds",
  examples: ["2026-11-21T10:52:00.000Z"]
})
