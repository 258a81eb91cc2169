import { Data } from "effect"

/** The embedded database could not be opened, locked or served. */
export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly message: string
  readonly cause?: unknown
}> {}
