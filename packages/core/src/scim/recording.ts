import { Effect } from "effect"
import type { DirectoryOperation } from "@tks/domain/administration"
import type { OrganizationId } from "@tks/domain/ids"
import type { DirectoryEvents } from "../directory/events.js"
import { ScimNotFound } from "./errors.js"
import { refusalReason, ScimInvalid } from "./user-resource.js"

/**
 * How the SCIM acts record the requests that change nothing: each is still
 * a directory event, recorded outside the change's transaction (which a
 * refusal rolls back), for `resource` (a User, or a Group: a team).
 */
export const scimRecording = (events: DirectoryEvents, resource: "User" | "Group") => ({
  /** A request naming no such resource of the organization: REJECTED, NOT_FOUND. */
  missing: (orgId: OrganizationId, operation: DirectoryOperation) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.tapError(effect, (error) =>
      error instanceof ScimNotFound
        ? events.record({ orgId, operation, outcome: "REJECTED", reason: "NOT_FOUND", message: error.detail, resource })
        : Effect.void),

  /** A refused resource: REJECTED with its scimType, or SKIPPED with why it was passed over. */
  refused: <A, E, R>(orgId: OrganizationId, operation: DirectoryOperation, name: string | null, act: Effect.Effect<A, E | ScimInvalid, R>) =>
    Effect.tapError(act, (error) =>
      error instanceof ScimInvalid
        ? events.record({
          orgId,
          operation,
          outcome: error.skipped === undefined ? "REJECTED" : "SKIPPED",
          reason: refusalReason(error),
          userName: name,
          message: error.detail,
          resource
        })
        : Effect.void)
})
