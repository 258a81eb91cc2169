import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { newId } from "../shared/ids.js"

/** The kinds of job the workers know. */
export type JobKind = "content.process"

/**
 * The PostgreSQL job queue (migration 0003, DESIGN 6). Enqueueing runs inside
 * the caller's transaction, so a job exists exactly when the act that asked
 * for it committed. At most one open job per (kind, subject): enqueueing
 * again while one is pending or running is a no-op.
 */
export class JobsRepo extends Effect.Service<JobsRepo>()("@tks/core/JobsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const enqueue = (input: { readonly orgId: OrganizationId; readonly kind: JobKind; readonly subjectId: string }) =>
      sql`
        INSERT INTO jobs (id, org_id, kind, subject_id)
        VALUES (${newId("job")}, ${input.orgId}, ${input.kind}, ${input.subjectId})
        ON CONFLICT (kind, org_id, subject_id) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING`.pipe(Effect.asVoid)

    return { enqueue } as const
  })
}) {}
