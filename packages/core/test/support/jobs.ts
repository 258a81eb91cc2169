import { SqlClient } from "@effect/sql"
import { Duration, Effect } from "effect"
import { OrganizationId } from "@tks/domain/ids"

/** A bare organization row, enough for jobs (jobs.org_id references it). */
export const insertOrganization = (name: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = OrganizationId.make(`org_${name}_${Math.random().toString(36).slice(2, 10)}`)
    yield* sql`INSERT INTO organizations (id, name) VALUES (${id}, ${name})`
    return id
  }).pipe(Effect.orDie)

export interface JobRecord {
  readonly id: string
  readonly status: string
  readonly attempts: number
  readonly lease_owner: string | null
  readonly last_error: string | null
  readonly retry_in_ms: number | null
  readonly completed: boolean
}

/** The jobs of a subject, oldest first. */
export const jobsOf = (subjectId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<JobRecord>`
      SELECT id, status, attempts, lease_owner, last_error, completed_at IS NOT NULL AS completed,
        CASE WHEN status = 'PENDING' THEN (extract(epoch FROM run_after - updated_at) * 1000)::float8 END AS retry_in_ms
      FROM jobs WHERE subject_id = ${subjectId} ORDER BY created_at, id`
  }).pipe(Effect.orDie)

/** The only job of a subject (fails the test when there are more or none). */
export const onlyJobOf = (subjectId: string) =>
  Effect.flatMap(jobsOf(subjectId), (jobs) =>
    jobs.length === 1 ? Effect.succeed(jobs[0]!) : Effect.dieMessage(`expected one job for ${subjectId}, found ${jobs.length}`))

/** Polls `check` every 20 ms until it holds (the test's own timeout bounds the wait). */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function*() {
    while (!(yield* check)) yield* Effect.sleep(Duration.millis(20))
  })
