import { Config } from "effect"
import { defineRule, perMinute } from "@tks/domain/rate-limit-rules"

/** The name of the default limit every authenticated /v1 request counts against, per access token. */
const REQUESTS_PER_TOKEN = "requests"

/**
 * RATE_LIMIT_PER_MINUTE: requests one access token may make per minute, over
 * all server processes (default 600: ten a second, far above what a person's
 * client sends, low enough to stop a runaway script).
 */
export const RequestsPerMinute = Config.integer("RATE_LIMIT_PER_MINUTE").pipe(
  Config.withDefault(600),
  Config.validate({ message: "RATE_LIMIT_PER_MINUTE must be a whole number from 1", validation: (n) => n >= 1 })
)

/**
 * The default limit at RATE_LIMIT_PER_MINUTE, counted by the statement that
 * authenticates the request (see Authenticator).
 */
export const requestsPerToken = (limit: number) =>
  defineRule({ name: REQUESTS_PER_TOKEN, windows: [perMinute(limit)], message: "Too many requests for this access token" })
