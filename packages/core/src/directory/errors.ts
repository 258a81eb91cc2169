import { Data } from "effect"
import type { DirectoryAuthReason } from "./rules.js"

/**
 * A directory request refused by the token check: the HTTP status (401 for
 * a missing, unknown, replaced, revoked or expired token or a disconnected
 * connection; 403 for a paused one) and the sentence the directory is told
 * (a SCIM error's `detail`). `reason` is the code its AUTH REJECTED event
 * was recorded with; null when the token named no organization, so nothing
 * was recorded.
 */
export class DirectoryAuthRejected extends Data.TaggedError("DirectoryAuthRejected")<{
  readonly status: 401 | 403
  readonly detail: string
  readonly reason: DirectoryAuthReason | null
}> {}

/** `connect` on an organization whose directory is connected (not DISCONNECTED): its token is rotated, not issued again. */
export class DirectoryAlreadyConnected extends Data.TaggedError("DirectoryAlreadyConnected")<{
  readonly message: string
}> {}
