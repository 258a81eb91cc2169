import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { IDEMPOTENCY_RETENTION_HOURS } from "@tks/domain/idempotency"

/** The answer a keyed write sent, as stored and as sent again. */
export interface KeptAnswer {
  readonly status: number
  readonly contentType: string | null
  readonly location: string | null
  readonly body: Uint8Array
}

/** A stored answer, with the hash of the request it answered. */
export interface KeptRow {
  readonly requestHash: string
  readonly answer: KeptAnswer
}

interface KeptColumns {
  readonly request_hash: string
  readonly status: number
  readonly content_type: string | null
  readonly location: string | null
  readonly body: Uint8Array
}

// The same name for the same savepoint in every keyed transaction.
const ACT_SAVEPOINT = "idempotent_act"

/**
 * All SQL of idempotent writes. Every statement but the sweep runs in the
 * keyed request's transaction (the caller opens it).
 */
export class IdempotencyRepo extends Effect.Service<IdempotencyRepo>()("@tks/core/IdempotencyRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const retention = sql`make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`

    /**
     * The transaction's lock on (token, key), or false when another
     * transaction holds it (a request with the key still running). Released
     * at COMMIT or ROLLBACK. The lock is the session's: on the embedded
     * database, one session for every connection, a second transaction never
     * runs beside the first, so it always gets the lock, once the first ended.
     */
    const lock = (tokenHash: string, key: string) =>
      sql<{ locked: boolean }>`
        SELECT pg_try_advisory_xact_lock(hashtextextended(${tokenHash}::text || ' ' || ${key}::text, 0)) AS locked`.pipe(
        Effect.map(([row]) => row?.locked === true)
      )

    /** The answer kept for (token, key) within the retention, if any. */
    const find = (tokenHash: string, key: string) =>
      sql<KeptColumns>`
        SELECT request_hash, status, content_type, location, body FROM idempotency_keys
        WHERE token_hash = ${tokenHash} AND key = ${key} AND created_at > now() - ${retention}`.pipe(
        Effect.map(([row]): KeptRow | undefined =>
          row === undefined ? undefined : {
            requestHash: row.request_hash,
            answer: { status: row.status, contentType: row.content_type, location: row.location, body: row.body }
          }
        )
      )

    /**
     * Stores the answer. A row past its retention may still be there (the
     * sweep had not come): it is replaced. Nothing else can hold the key:
     * the caller holds its lock and found no row within the retention.
     */
    const keep = (tokenHash: string, key: string, requestHash: string, answer: KeptAnswer) =>
      sql`
        INSERT INTO idempotency_keys (token_hash, key, request_hash, status, content_type, location, body)
        VALUES (${tokenHash}, ${key}, ${requestHash}, ${answer.status}, ${answer.contentType}, ${answer.location}, ${answer.body})
        ON CONFLICT (token_hash, key) DO UPDATE SET
          request_hash = excluded.request_hash, status = excluded.status, content_type = excluded.content_type,
          location = excluded.location, body = excluded.body, created_at = excluded.created_at`.pipe(Effect.asVoid)

    /**
     * A savepoint before the act: a statement of the act that the database
     * refused (answered 400 or 409) leaves the transaction unusable, and
     * rolling back to it is the only way to still store that answer.
     */
    const markBeforeAct = sql.unsafe(`SAVEPOINT ${ACT_SAVEPOINT}`).pipe(Effect.asVoid)
    const rollBackAct = sql.unsafe(`ROLLBACK TO SAVEPOINT ${ACT_SAVEPOINT}`).pipe(Effect.asVoid)

    /** Deletes the answers past their retention; how many. */
    const deleteExpired = sql<{ deleted: number }>`
      WITH deleted AS (DELETE FROM idempotency_keys WHERE created_at <= now() - ${retention} RETURNING 1)
      SELECT count(*)::int AS deleted FROM deleted`.pipe(Effect.map(([row]) => row?.deleted ?? 0))

    return { lock, find, keep, markBeforeAct, rollBackAct, deleteExpired } as const
  })
}) {}
