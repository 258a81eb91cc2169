import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Jobs of one kind waiting to run. */
interface QueueRow {
  readonly kind: string
  /** PENDING jobs (scheduled retries included) and RUNNING ones whose lease lapsed. */
  readonly depth: number
  /** Seconds the longest-waiting due job has waited since it became due (0: none due). */
  readonly oldest_age: number
}

interface OutboxRow {
  readonly pending: number
  /** Seconds since the oldest undelivered notification was written (0: none). */
  readonly lag: number
}

interface NarrationUseRow {
  readonly org_id: string
  readonly used: number
}

/**
 * The whole database's backlog, for the operator's gauges: read on a
 * metrics collection, never per request. Each statement goes through a
 * partial index of open jobs, so its cost follows the backlog, not the
 * history of jobs and notifications.
 */
export class OperationsRepo extends Effect.Service<OperationsRepo>()("@tks/core/OperationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // Due as the workers' claim says (jobs/repo.ts): PENDING whose run_after has
    // come, or RUNNING whose lease lapsed; waiting since that moment.
    const queues = sql<QueueRow>`
      SELECT kind, count(*)::int AS depth,
        coalesce(extract(epoch FROM now() - min(CASE WHEN status = 'PENDING' THEN run_after ELSE lease_expires_at END)
          FILTER (WHERE status = 'RUNNING' OR run_after <= now())), 0)::float8 AS oldest_age
      FROM jobs
      WHERE status = 'PENDING' OR (status = 'RUNNING' AND lease_expires_at < now())
      GROUP BY kind`

    // Read through the open delivery jobs (jobs_open_subject) rather than a scan
    // of notifications, which has no status index on purpose (its inserts are
    // the big ones): a PENDING notification always has an open delivery job,
    // written in the same transaction, and the job ends only once the
    // notification is settled or given up.
    const outbox = sql<OutboxRow>`
      SELECT count(*)::int AS pending, coalesce(extract(epoch FROM now() - min(n.created_at)), 0)::float8 AS lag
      FROM jobs j JOIN notifications n ON n.org_id = j.org_id AND n.id = j.subject_id
      WHERE j.kind = 'notification.deliver' AND j.status IN ('PENDING', 'RUNNING') AND n.status = 'PENDING'`.pipe(
      Effect.map((rows) => rows[0] ?? { pending: 0, lag: 0 })
    )

    // This UTC month's counts by the database clock, as reservations make them (narration/repo.ts).
    const narrationUse = sql<NarrationUseRow>`
      SELECT org_id, used FROM narration_allowances
      WHERE month = date_trunc('month', now() AT TIME ZONE 'UTC')::date`

    return { queues, outbox, narrationUse } as const
  })
}) {}
