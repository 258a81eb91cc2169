import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DirectoryOperation, DirectoryOutcome } from "@tks/domain/administration"
import type { OrganizationId } from "@tks/domain/ids"
import type { CounterMoves } from "./rules.js"

export interface DirectoryEventRow {
  readonly orgId: OrganizationId
  readonly id: string
  readonly operation: DirectoryOperation
  readonly outcome: DirectoryOutcome
  readonly reason: string | null
  readonly userName: string | null
  readonly externalId: string | null
  readonly message: string | null
}

export class DirectoryEventsRepo extends Effect.Service<DirectoryEventsRepo>()("@tks/core/DirectoryEventsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insertEvent = (event: DirectoryEventRow) =>
      sql`INSERT INTO directory_events (org_id, id, operation, outcome, reason, user_name, external_id, message)
          VALUES (${event.orgId}, ${event.id}, ${event.operation}, ${event.outcome}, ${event.reason},
                  ${event.userName}, ${event.externalId}, ${event.message})`

    /**
     * The event and what it moves on its connection, in one statement (so
     * they never disagree, in or out of a transaction). `lastSyncAt` takes the
     * transaction's now(), the event's own `createdAt`.
     */
    const insert = (event: DirectoryEventRow, moves: CounterMoves) =>
      moves.provisioned + moves.updated + moves.deactivated + moves.skipped === 0 && !moves.synced
        ? Effect.asVoid(insertEvent(event))
        : sql`
            WITH event AS (${insertEvent(event)})
            UPDATE directory_connections SET
              count_provisioned = count_provisioned + ${moves.provisioned},
              count_updated = count_updated + ${moves.updated},
              count_deactivated = count_deactivated + ${moves.deactivated},
              count_skipped = count_skipped + ${moves.skipped}
              ${moves.synced ? sql`, last_sync_at = now()` : sql``}
            WHERE org_id = ${event.orgId}`.pipe(Effect.asVoid)

    return { insert } as const
  })
}) {}
