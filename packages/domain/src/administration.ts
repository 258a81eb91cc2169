import { Schema } from "effect"
import { Count, Timestamp } from "./common.js"
import { PageParams } from "./page-params.js"
import { storableText } from "./text.js"

/** A finding. The author is not returned. */
export const FindingSourceType = Schema.Literal("user", "system")
export const SystemSourceType = Schema.Literal("web_analysis", "research_conversation")

export const Finding = Schema.Struct({
  id: Schema.String,
  content: Schema.String,
  source: Schema.Struct({ type: FindingSourceType, systemSourceType: Schema.NullOr(SystemSourceType) }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "Finding" })
export type Finding = typeof Finding.Type

export const VerificationStatus = Schema.Literal("never_verified", "current", "reverification_due")
export type VerificationStatus = typeof VerificationStatus.Type

/** The org-chart verification. The confirming person is not returned. */
export const OrgChartVerification = Schema.Struct({
  status: VerificationStatus,
  lastVerifiedAt: Schema.NullOr(Timestamp),
  intervalDays: Count,
  nextDueAt: Schema.NullOr(Timestamp),
  isDue: Schema.Boolean
}).annotations({ identifier: "OrgChartVerification" })
export type OrgChartVerification = typeof OrgChartVerification.Type

export const DirectoryConnectionStatus = Schema.Literal("PENDING", "ACTIVE", "PAUSED", "ERROR", "DISCONNECTED")
export type DirectoryConnectionStatus = typeof DirectoryConnectionStatus.Type

export const DirectoryConnection = Schema.Struct({
  status: DirectoryConnectionStatus,
  tokenCreatedAt: Schema.NullOr(Timestamp),
  tokenLastUsedAt: Schema.NullOr(Timestamp),
  tokenExpiresAt: Schema.NullOr(Timestamp),
  tokenActive: Schema.Boolean,
  lastSyncAt: Schema.NullOr(Timestamp),
  pausedAt: Schema.NullOr(Timestamp),
  pausedReason: Schema.NullOr(Schema.String),
  sendWelcomeImmediately: Schema.Boolean,
  countProvisioned: Count,
  countUpdated: Count,
  countDeactivated: Count,
  countSkipped: Count,
  createdAt: Timestamp
}).annotations({ identifier: "DirectoryConnection" })
export type DirectoryConnection = typeof DirectoryConnection.Type

/** The longest lifetime a directory token may be given, in days (ten years). */
export const DIRECTORY_TOKEN_MAX_DAYS = 3650

export const DIRECTORY_PAUSED_REASON_MAX_LENGTH = 500

/** A directory token's lifetime in days: a whole number from 1 to DIRECTORY_TOKEN_MAX_DAYS. */
export const DirectoryTokenDays = Schema.Int.pipe(Schema.between(1, DIRECTORY_TOKEN_MAX_DAYS)).annotations({
  identifier: "DirectoryTokenDays",
  description: `Days from now until the token expires, 1 to ${DIRECTORY_TOKEN_MAX_DAYS}.`
})

/** POST /v1/directory-sync/token. */
export const IssueDirectoryToken = Schema.Struct({
  expiresInDays: Schema.optional(DirectoryTokenDays.annotations({
    description:
      `Days from now until the token expires, 1 to ${DIRECTORY_TOKEN_MAX_DAYS}. Left out: a first token (or one that connects a disconnected directory again) never expires; a rotated one lasts as long as the one it replaces was given.`
  }))
}).annotations({ identifier: "IssueDirectoryToken" })
export type IssueDirectoryToken = typeof IssueDirectoryToken.Type

/** The answer of issuing a directory token: the only one that shows it. */
export const DirectoryTokenIssued = Schema.Struct({
  connection: DirectoryConnection,
  token: Schema.String.annotations({
    description:
      "The directory's bearer token (`scim_` and the base64url of 32 random bytes), for the identity directory's SCIM settings. Shown only here: only its SHA-256 is kept."
  })
}).annotations({ identifier: "DirectoryTokenIssued" })
export type DirectoryTokenIssued = typeof DirectoryTokenIssued.Type

export const DirectoryPausedReason = storableText(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(DIRECTORY_PAUSED_REASON_MAX_LENGTH))).annotations({
  description: `Why the connection is paused, shown as pausedReason and to the directory in each refusal; 1 to ${DIRECTORY_PAUSED_REASON_MAX_LENGTH} characters, trimmed.`
})

/** POST /v1/directory-sync/pause. */
export const PauseDirectoryConnection = Schema.Struct({
  reason: Schema.optional(DirectoryPausedReason)
}).annotations({ identifier: "PauseDirectoryConnection" })
export type PauseDirectoryConnection = typeof PauseDirectoryConnection.Type

export const DirectorySync = Schema.Struct({
  eligible: Schema.Boolean,
  connection: Schema.NullOr(DirectoryConnection)
}).annotations({ identifier: "DirectorySync" })
export type DirectorySync = typeof DirectorySync.Type

export const DirectoryOperation = Schema.Literal("CREATE", "UPDATE", "DEACTIVATE", "REACTIVATE", "DELETE", "LIST", "AUTH")
export type DirectoryOperation = typeof DirectoryOperation.Type
export const DirectoryOutcome = Schema.Literal("APPLIED", "SKIPPED", "REJECTED", "FAILED")
export type DirectoryOutcome = typeof DirectoryOutcome.Type

/** A directory event; the printed sentence, the directory's person id and the employee record are omitted. */
export const DirectoryEvent = Schema.Struct({
  operation: DirectoryOperation,
  outcome: DirectoryOutcome,
  reason: Schema.NullOr(Schema.String),
  userName: Schema.NullOr(Schema.String),
  createdAt: Timestamp
}).annotations({ identifier: "DirectoryEvent" })
export type DirectoryEvent = typeof DirectoryEvent.Type

/** GET /v1/directory-sync/events parameters. */
export const DirectoryEventParams = Schema.Struct({
  outcome: Schema.optional(DirectoryOutcome.annotations({ description: "Only events with this outcome" })),
  ...PageParams.fields
})
export type DirectoryEventParams = typeof DirectoryEventParams.Type

/**
 * A verified email domain of the organization: the identity directory may
 * provision only people whose email is at one of them, exactly (a
 * subdomain is a domain of its own). Added and removed by the operator.
 */
export const VerifiedDomain = Schema.Struct({
  domain: Schema.String.annotations({
    description: "The bare domain name in its ASCII form: lower case, punycode (`xn--`) for an internationalized name, no trailing dot."
  }),
  verifiedAt: Timestamp,
  createdAt: Timestamp
}).annotations({ identifier: "VerifiedDomain" })
export type VerifiedDomain = typeof VerifiedDomain.Type
