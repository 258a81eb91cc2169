import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { JobsRepo } from "../src/jobs/repo.js"
import { insertOrganization, jobsOf, onlyJobOf } from "./support/jobs.js"

const TestLayer = JobsRepo.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const LONG_LEASE = 60_000
const kinds = ["content.process"] as const

const claimAs = (owner: string, leaseMs = LONG_LEASE) => Effect.flatMap(JobsRepo, (repo) => repo.claim({ owner, kinds, leaseMs }))

const claimed = (owner: string, leaseMs = LONG_LEASE) =>
  Effect.flatMap(claimAs(owner, leaseMs), (job) => Option.isSome(job) ? Effect.succeed(job.value) : Effect.dieMessage(`${owner} found no job`))

const enqueue = (orgId: Parameters<JobsRepo["enqueue"]>[0]["orgId"], subjectId: string, maxAttempts?: number) =>
  Effect.flatMap(JobsRepo, (repo) =>
    repo.enqueue({ orgId, kind: "content.process", subjectId, ...(maxAttempts === undefined ? {} : { maxAttempts }) }))

// Nothing else may be due when a test claims: each test finishes the jobs it made.
const finishAll = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE jobs SET status = 'COMPLETED', completed_at = now() WHERE status IN ('PENDING', 'RUNNING')`
})

// Real time: leases and retry delays run on the database clock.
layer(TestLayer, { excludeTestServices: true })("the job queue", (it) => {
  it.effect("enqueueing again while a job for the subject is open adds nothing; after it ends a new job can be made", () =>
    Effect.gen(function*() {
      const repo = yield* JobsRepo
      const org = yield* insertOrganization("enqueue")
      yield* enqueue(org, "cnt_twice")
      yield* enqueue(org, "cnt_twice")
      expect(yield* jobsOf("cnt_twice")).toHaveLength(1)
      const job = yield* claimed("a")
      // Running is still open.
      yield* enqueue(org, "cnt_twice")
      expect(yield* jobsOf("cnt_twice")).toHaveLength(1)
      expect(yield* repo.complete(job, "a")).toBe(true)
      yield* enqueue(org, "cnt_twice")
      expect((yield* jobsOf("cnt_twice")).map((j) => j.status)).toEqual(["COMPLETED", "PENDING"])
      yield* finishAll
    }))

  it.effect("concurrent claimers never get the same job: each job is claimed once", () =>
    Effect.gen(function*() {
      const org = yield* insertOrganization("concurrent")
      const subjects = Array.from({ length: 24 }, (_, i) => `cnt_concurrent_${i}`)
      for (const subject of subjects) yield* enqueue(org, subject)
      const claimUntilEmpty = (owner: string) =>
        Effect.gen(function*() {
          const mine: Array<string> = []
          while (true) {
            const job = yield* claimAs(owner)
            if (Option.isNone(job)) return mine
            mine.push(job.value.subjectId)
          }
        })
      const owners = Array.from({ length: 6 }, (_, i) => `claimer-${i}`)
      const results = yield* Effect.all(owners.map(claimUntilEmpty), { concurrency: "unbounded" })
      const all = results.flat()
      expect(all).toHaveLength(subjects.length)
      expect(new Set(all)).toEqual(new Set(subjects))
      for (const subject of subjects) expect((yield* onlyJobOf(subject)).attempts).toBe(1)
      yield* finishAll
    }))

  it.effect("a job whose lease lapsed is taken over; the worker that lost it can neither complete nor fail it", () =>
    Effect.gen(function*() {
      const repo = yield* JobsRepo
      const org = yield* insertOrganization("takeover")
      yield* enqueue(org, "cnt_takeover")
      const first = yield* claimed("first", 300)
      // Held: nobody else gets it.
      expect(Option.isNone(yield* claimAs("second"))).toBe(true)
      yield* Effect.sleep(Duration.millis(400))
      const second = yield* claimed("second")
      expect(second.id).toBe(first.id)
      expect(second.attempt).toBe(2)
      expect(yield* repo.renew(first, "first", LONG_LEASE)).toBe(false)
      expect(yield* repo.complete(first, "first")).toBe(false)
      expect(yield* repo.fail(first, "first", "late failure", 10)).toBe("lost")
      expect(yield* onlyJobOf("cnt_takeover")).toMatchObject({ status: "RUNNING", lease_owner: "second", last_error: null })
      expect(yield* repo.complete(second, "second")).toBe(true)
      expect(yield* onlyJobOf("cnt_takeover")).toMatchObject({ status: "COMPLETED", lease_owner: "second", attempts: 2, completed: true })
    }))

  it.effect("a failed attempt is retried after a doubling delay, and after the last attempt the job is FAILED with its reason", () =>
    Effect.gen(function*() {
      const repo = yield* JobsRepo
      const org = yield* insertOrganization("retries")
      yield* enqueue(org, "cnt_retries", 3)
      const one = yield* claimed("w")
      expect(yield* repo.fail(one, "w", "first reason", 200)).toBe("retrying")
      expect(yield* onlyJobOf("cnt_retries")).toMatchObject({ status: "PENDING", lease_owner: null, last_error: "first reason", retry_in_ms: 200 })
      // Not due before its delay.
      expect(Option.isNone(yield* claimAs("w"))).toBe(true)
      yield* Effect.sleep(Duration.millis(250))
      const two = yield* claimed("w")
      expect(two.attempt).toBe(2)
      expect(yield* repo.fail(two, "w", "second reason", 400)).toBe("retrying")
      expect((yield* onlyJobOf("cnt_retries")).retry_in_ms).toBe(400)
      yield* Effect.sleep(Duration.millis(450))
      const three = yield* claimed("w")
      expect(three.attempt).toBe(3)
      expect(yield* repo.fail(three, "w", "third reason", 800)).toBe("failed")
      expect(yield* onlyJobOf("cnt_retries")).toMatchObject({ status: "FAILED", attempts: 3, last_error: "third reason", completed: false })
      // A failed job is not claimed again.
      expect(Option.isNone(yield* claimAs("w"))).toBe(true)
    }))

  it.effect("a released job is due at once, without the interrupted attempt counted", () =>
    Effect.gen(function*() {
      const repo = yield* JobsRepo
      const org = yield* insertOrganization("release")
      yield* enqueue(org, "cnt_release")
      const job = yield* claimed("leaving")
      yield* repo.release(job, "leaving")
      expect(yield* onlyJobOf("cnt_release")).toMatchObject({ status: "PENDING", attempts: 0, lease_owner: null })
      const again = yield* claimed("staying")
      expect(again.attempt).toBe(1)
      // The one that left cannot release what another now holds.
      yield* repo.release(job, "leaving")
      expect((yield* onlyJobOf("cnt_release")).lease_owner).toBe("staying")
      yield* finishAll
    }))

  it.effect("a claim of several kinds takes the oldest due job among them, of whichever kind, and never a kind it does not run", () =>
    Effect.gen(function*() {
      const repo = yield* JobsRepo
      const sql = yield* SqlClient.SqlClient
      const org = yield* insertOrganization("kinds")
      yield* repo.enqueueMany({ orgId: org, kind: "quiz.prepare", subjectIds: ["quiz_old", "quiz_new"] })
      yield* repo.enqueueMany({ orgId: org, kind: "webhook.deliver", subjectIds: ["whd_middle"] })
      yield* repo.enqueueMany({ orgId: org, kind: "notification.deliver", subjectIds: ["ntf_oldest"] })
      yield* sql`UPDATE jobs SET run_after = now() - make_interval(secs => CASE subject_id
        WHEN 'ntf_oldest' THEN 40 WHEN 'quiz_old' THEN 30 WHEN 'whd_middle' THEN 20 ELSE 10 END)
        WHERE org_id = ${org}`
      const order: Array<string> = []
      const both = ["quiz.prepare", "webhook.deliver"] as const
      for (let i = 0; i < 4; i++) {
        const job = yield* repo.claim({ owner: "w", kinds: both, leaseMs: LONG_LEASE })
        if (Option.isSome(job)) order.push(job.value.subjectId)
      }
      expect(order).toEqual(["quiz_old", "whd_middle", "quiz_new"])
      yield* finishAll
    }))
})
