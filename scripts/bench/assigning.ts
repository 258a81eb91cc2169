import os from "node:os"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { capturing, type Statement } from "./capture.js"
import type { SqlClient } from "./database.js"
import { ms, table } from "./walk.js"

/**
 * Assigning a lesson to everyone in a large organization (issue 8: 20,000
 * people in under 10 s, the outbox rows written in the same transaction),
 * over real HTTP as an organization admin:
 *
 * 1. POST /v1/lessons/{id}/assignments {audience: everyone, due in 30 days}:
 *    the time to the full answer, with the statements the server ran;
 * 2. what it wrote: enrollments, obligations, quizzes being prepared, and
 *    outbox rows (email, and text for people with a phone) with their jobs;
 *    all of them stamped with the one transaction's `now()`, which is the
 *    proof they were written in the same transaction as the enrollments;
 * 3. the same call again: everyone already has the lesson, nobody is new,
 *    every active obligation merges (the earlier date wins).
 */
export interface AssigningBenchInput {
  readonly base: string
  readonly sql: SqlClient
  /** An organization admin's token with training:assign. */
  readonly token: string
  readonly orgId: string
  readonly lessonId: string
  readonly people: number
  readonly progress: (message: string) => void
}

/** The budget issue 8 sets for assigning to everyone in a 20,000-person organization. */
const BUDGET_MS = 10_000

export const assignEveryone = async (input: Pick<AssigningBenchInput, "base" | "token" | "lessonId">, days: number) => {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const response = await fetch(`${input.base}/v1/lessons/${input.lessonId}/assignments`, {
    method: "POST",
    headers: { authorization: `Bearer ${input.token}`, "content-type": "application/json", "accept-encoding": "identity" },
    body: JSON.stringify({ audience: "everyone", due: { type: "days", days } })
  })
  const body = await response.text()
  const took = performance.now() - started
  // This process's CPU time meanwhile: the server's work, and the embedded database's (PGlite runs in it) but not PostgreSQL's.
  const used = process.cpuUsage(cpu)
  const cpuMs = (used.user + used.system) / 1000
  if (response.status !== 200) throw new Error(`assigning answered ${response.status}: ${body.slice(0, 300)}`)
  return { ms: took, cpuMs, assigned: (JSON.parse(body) as { assigned: ReadonlyArray<unknown> }).assigned.length, bytes: body.length }
}

/** The statements of one request: how many, and their total time. */
const statementSummary = (statements: ReadonlyArray<Statement>) => {
  const total = statements.reduce((sum, s) => sum + s.ms, 0)
  return { count: statements.length, total }
}

interface Written {
  readonly enrollments: number
  readonly obligations: number
  readonly quizzes: number
  readonly emails: number
  readonly texts: number
  readonly deliveryJobs: number
  readonly quizJobs: number
  readonly stamps: number
}

export const assigningBench = (input: AssigningBenchInput) =>
  Effect.gen(function*() {
    const { sql, orgId, lessonId } = input
    input.progress("assigning a lesson to everyone")
    const [first, firstStatements] = yield* Effect.promise(() => capturing(() => assignEveryone(input, 30)))
    input.progress(`assigned ${first.assigned} people in ${ms(first.ms)} ms`)

    // Every row the act wrote carries the transaction's now(): one distinct stamp means one transaction.
    const [written] = yield* sql.unsafe<Written>(
      `WITH e AS (SELECT id, enrolled_at FROM enrollments WHERE org_id = $1 AND lesson_id = $2),
        n AS (SELECT id, channel, created_at FROM notifications WHERE org_id = $1 AND notice ->> 'lessonId' = $2)
      SELECT (SELECT count(*)::int FROM e) AS enrollments,
        (SELECT count(*)::int FROM obligations WHERE org_id = $1 AND item_type = 'lesson' AND item_id = $2 AND status = 'active') AS obligations,
        (SELECT count(*)::int FROM enrollment_quizzes q WHERE q.org_id = $1 AND q.enrollment_id IN (SELECT id FROM e)) AS quizzes,
        (SELECT count(*)::int FROM n WHERE channel = 'email') AS emails,
        (SELECT count(*)::int FROM n WHERE channel = 'sms') AS texts,
        (SELECT count(*)::int FROM jobs WHERE org_id = $1 AND kind = 'notification.deliver' AND subject_id IN (SELECT id FROM n)) AS "deliveryJobs",
        (SELECT count(*)::int FROM jobs WHERE org_id = $1 AND kind = 'quiz.prepare' AND subject_id IN (SELECT id FROM e)) AS "quizJobs",
        (SELECT count(DISTINCT stamp)::int FROM (
          SELECT enrolled_at AS stamp FROM e UNION ALL SELECT created_at FROM n
          UNION ALL SELECT created_at FROM obligations WHERE org_id = $1 AND item_type = 'lesson' AND item_id = $2
        ) s) AS stamps`,
      [orgId, lessonId]
    )
    input.progress("assigning the same lesson to everyone again")
    const [again, againStatements] = yield* Effect.promise(() => capturing(() => assignEveryone(input, 20)))

    const w = written!
    const one = statementSummary(firstStatements)
    const two = statementSummary(againStatements)
    const lines = [
      `\nassigning a lesson to everyone in a ${input.people}-person organization (POST /v1/lessons/{id}/assignments, audience everyone, due in days), over HTTP as an organization admin:\n`,
      table(
        ["call", "people listed", "ms", "process CPU ms", "statements", "SQL ms", "answer bytes"],
        [
          ["first (everyone new)", String(first.assigned), ms(first.ms), ms(first.cpuMs), String(one.count), ms(one.total), String(first.bytes)],
          ["again (nobody new, all merge)", String(again.assigned), ms(again.ms), ms(again.cpuMs), String(two.count), ms(two.total), String(again.bytes)]
        ]
      ),
      `load average when it ran: ${os.loadavg().map((l) => l.toFixed(1)).join(", ")} on ${os.cpus().length} CPUs (wall-clock times grow with it; process CPU time much less)`,
      `\nwritten by the first call: ${w.enrollments} enrollments, ${w.obligations} active obligations, ${w.quizzes} quizzes being prepared (${w.quizJobs} quiz.prepare jobs), ` +
      `${w.emails + w.texts} outbox rows (${w.emails} emails, ${w.texts} texts to people with a phone) with ${w.deliveryJobs} notification.deliver jobs`,
      `one transaction: every enrollment, obligation and outbox row carries the same transaction timestamp now() (${w.stamps} distinct value${w.stamps === 1 ? "" : "s"})`,
      `\nthe first call's statements, in order:\n`,
      table(["ms", "statement"], firstStatements.map((st) => [ms(st.ms), st.text.trim().replace(/\s+/g, " ").slice(0, 90)])),
      first.ms <= BUDGET_MS
        ? `within the budget: ${ms(first.ms)} ms <= ${BUDGET_MS} ms`
        : `WARNING: over the budget: ${ms(first.ms)} ms > ${BUDGET_MS} ms`
    ]
    if (w.stamps !== 1) lines.push("WARNING: the rows carry more than one transaction timestamp")
    return { lines, firstMs: first.ms }
  })
