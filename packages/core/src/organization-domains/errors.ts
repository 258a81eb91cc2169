import { Schema } from "effect"

/**
 * The domain is a verified domain of another organization: a domain
 * belongs to one organization at most. Only the operator meets this (the
 * CLI), so it names the holder.
 */
export class DomainTaken extends Schema.TaggedError<DomainTaken>()("DomainTaken", {
  message: Schema.String,
  domain: Schema.String,
  holder: Schema.String
}) {}
