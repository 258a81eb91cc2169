import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import { acme } from "../testing/organizations.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

layer(TestLayer)("acme's training, as acme-training.ts describes it", (it) => {
  it.effect("has every state the training reads tell apart, and queues no job", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const result = yield* (yield* FixtureImporter).importOrganization(acme)
      const org = result.organizationId
      const keyOf = new Map(Object.entries(result.ids.people).map(([key, id]) => [id, key]))

      const obligations = yield* sql<{ user_id: string; item_type: string; kind: string; status: string; overdue: boolean; due_date_overridden: boolean; needs_review: boolean; required: boolean }>`
        SELECT user_id, item_type, kind, status, (status = 'active' AND due_date < now()) AS overdue, due_date_overridden, needs_review, required
        FROM obligations WHERE org_id = ${org}`
      expect(new Set(obligations.map((row) => row.status))).toEqual(new Set(["active", "completed", "cancelled", "waived"]))
      expect(new Set(obligations.map((row) => row.item_type))).toEqual(new Set(["lesson", "topic", "item"]))
      expect(new Set(obligations.map((row) => row.kind))).toEqual(new Set(["assignment", "knowledge", "retraining"]))
      expect(obligations.filter((row) => row.overdue).map((row) => keyOf.get(row.user_id)).sort()).toEqual(["amy", "victor", "victor"])
      expect(obligations.filter((row) => row.due_date_overridden)).toHaveLength(1)
      expect(obligations.filter((row) => row.needs_review)).toHaveLength(1)
      expect(obligations.filter((row) => !row.required)).toHaveLength(1)

      const mastery = yield* sql<{ level: string }>`SELECT DISTINCT level FROM mastery WHERE org_id = ${org} ORDER BY level`
      expect(mastery.map((row) => row.level)).toEqual(["MASTERED", "NONE", "PARTIAL"])

      const enrollments = yield* sql<{ status: string; n: number }>`
        SELECT status, count(*)::int AS n FROM enrollments WHERE org_id = ${org} GROUP BY status ORDER BY status`
      expect(enrollments).toEqual([{ status: "completed", n: 4 }, { status: "in_progress", n: 4 }])
      const attempts = yield* sql<{ passed: boolean; n: number }>`
        SELECT passed, count(*)::int AS n FROM quiz_attempts WHERE org_id = ${org} GROUP BY passed ORDER BY passed`
      expect(attempts).toEqual([{ passed: false, n: 2 }, { passed: true, n: 4 }])
      const retrainDue = yield* sql<{ id: string }>`SELECT id FROM enrollments WHERE org_id = ${org} AND retrain_at < now()`
      expect(retrainDue.map((row) => row.id).sort()).toEqual(
        ["doraOnboarding", "rexDrills", "victorOnboarding"].map((key) => result.ids.enrollments[key]).sort()
      )

      const reviewAuthors = yield* sql<{ author_id: string }>`
        SELECT author_id FROM member_reviews WHERE org_id = ${org} AND user_id = ${result.ids.people["victor"]} ORDER BY reviewed_at`
      expect(reviewAuthors.map((row) => keyOf.get(row.author_id))).toEqual(["victor", "olivia", "adam"])

      const lessons = yield* sql<{ title: string; status: string; personal: boolean }>`
        SELECT title, status, personal_for_user_id IS NOT NULL AS personal FROM lessons WHERE org_id = ${org} AND (status = 'closed' OR personal_for_user_id IS NOT NULL)`
      expect(lessons).toEqual(expect.arrayContaining([
        { title: "Retired Planning Course", status: "closed", personal: false },
        { title: "Personal Coaching for Victor", status: "open", personal: true }
      ]))

      const recipients = yield* sql<{ status: string; sender: string | null; generation_status: string }>`
        SELECT r.status, q.sent_by AS sender, r.generation_status FROM pop_quiz_recipients r
        JOIN pop_quizzes q ON q.org_id = r.org_id AND q.id = r.pop_quiz_id WHERE r.org_id = ${org}`
      expect(new Set(recipients.map((row) => row.status))).toEqual(new Set(["not_started", "STARTED", "COMPLETED"]))
      expect(recipients.every((row) => row.generation_status === "READY")).toBe(true)
      expect(new Set(recipients.map((row) => (row.sender === null ? null : keyOf.get(row.sender))))).toEqual(new Set(["adam", "olivia", null]))

      const jobs = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE org_id = ${org}`
      expect(jobs[0]?.n).toBe(0)
    }))
})
