/**
 * The HTTP handlers' names for the one mapping of database failures every
 * transport uses (@tks/core/common/database-failures): 503 when the database
 * is away (SERVICE_UNAVAILABLE) or timed a statement out (DATABASE_TIMEOUT),
 * both with Retry-After (added to every 503 by error-bodies.ts); 400 when it
 * refused a value the caller sent, 409 for an unchecked constraint (the
 * DatabaseConflict defect answers itself), a logged 500 otherwise.
 * Authentication, whose only database answer is 503, uses
 * withDatabaseAvailability.
 */
export {
  DatabaseConflict,
  withDatabaseAvailability,
  withSqlErrorAnswers as withInfrastructureErrors
} from "@tks/core/common/database-failures"
