import { Effect } from "effect"
import type { DirectoryOperation, DirectoryOutcome } from "@tks/domain/administration"
import type { OrganizationId } from "@tks/domain/ids"
import { newId } from "../common/ids.js"
import { traced } from "../common/traced.js"
import { DirectoryEventsRepo } from "./events-repo.js"
import { countersMovedBy } from "./rules.js"

/** One thing the organization's identity directory asked for, and what came of it. */
export interface DirectoryEventInput {
  readonly orgId: OrganizationId
  readonly operation: DirectoryOperation
  readonly outcome: DirectoryOutcome
  /** A stable code saying why it was skipped, refused or failed (NO_CHANGE, TOKEN_REVOKED, ...); null when APPLIED. */
  readonly reason?: string | null | undefined
  /** The person's userName as the directory sent it. */
  readonly userName?: string | null | undefined
  /** The directory's own id of the person. */
  readonly externalId?: string | null | undefined
  /** A sentence for the operator (never shown by the API). */
  readonly message?: string | null | undefined
  /** An APPLIED write that changed a record: moves the connection's lastSyncAt. */
  readonly changed?: boolean | undefined
  /** What the request was about (default User): a Group's (a team's) requests move lastSyncAt but none of the people counters. */
  readonly resource?: "User" | "Group" | undefined
}

/**
 * The directory's log (docs/directory-sync.md): each event recorded with
 * what it moves on the organization's connection (countersMovedBy: the
 * counters, and lastSyncAt), in one statement that joins the caller's
 * transaction, so the SCIM request's write, its event and the counters
 * commit or roll back together.
 */
export class DirectoryEvents extends Effect.Service<DirectoryEvents>()("@tks/core/DirectoryEvents", {
  effect: Effect.gen(function*() {
    const repo = yield* DirectoryEventsRepo

    const record = traced("DirectoryEvents.record")(function*(input: DirectoryEventInput) {
      yield* repo.insert({
        orgId: input.orgId,
        id: newId("directoryEvent"),
        operation: input.operation,
        outcome: input.outcome,
        reason: input.reason ?? null,
        userName: input.userName ?? null,
        externalId: input.externalId ?? null,
        message: input.message ?? null
      }, input.resource === "Group"
        ? { ...countersMovedBy("LIST", input.outcome, false), synced: input.outcome === "APPLIED" && (input.changed ?? false) }
        : countersMovedBy(input.operation, input.outcome, input.changed ?? false))
    })

    return { record } as const
  }),
  dependencies: [DirectoryEventsRepo.Default]
}) {}
