import { newId } from "../common/ids.js"
import { daysAfter, type PlanContext, type Row } from "./plan-types.js"
import { fixtureGenerator, resultsFor, storedQuestions, summaryOf } from "./plan-questions.js"
import { earliest, FirstOf, latest, notBefore } from "./plan-training-rules.js"

/** A quiz counts as passed at this score unless the fixture says otherwise. */
const passingScore = 0.8

/**
 * enrollments, enrollment_quizzes and quiz_attempts, plus a "quiz.prepare"
 * job for each enrollment whose quiz the fixture leaves to be prepared (the
 * way an assignment prepares it: PENDING row, job in the same transaction).
 *
 * Mirrors the partial unique index `enrollments_open` as a problem: at most
 * one enrollment in progress per person and lesson.
 */
export const planEnrollments = (ctx: PlanContext) => {
  const { fixture, keys, organizationId: org_id, now, at } = ctx
  const lessons = new Map(fixture.lessons.map((lesson) => [lesson.key, lesson]))
  const intervals = new Map(fixture.retrainingPolicies.map((policy) => [policy.lesson, policy.intervalDays]))
  const open = new FirstOf()

  const enrollments: Array<Row> = []
  const quizzes: Array<Row> = []
  const attempts: Array<Row> = []
  const jobs: Array<Row> = []

  fixture.enrollments.forEach((enrollment, i) => {
    const path = at("enrollments", i)
    const id = enrollment.key === undefined ? newId("enrollment") : keys.ref("enrollment", enrollment.key, `${path}.key`) ?? ""
    const userId = keys.ref("person", enrollment.person, `${path}.person`) ?? ""
    const lessonId = keys.ref("lesson", enrollment.lesson, `${path}.lesson`) ?? ""
    const lesson = lessons.get(enrollment.lesson)
    if (lesson?.personalFor !== undefined && lesson.personalFor !== enrollment.person) {
      keys.problem(`${path}.lesson`, `lesson "${enrollment.lesson}" was generated for "${lesson.personalFor}" only`)
    }

    const completed = enrollment.status === "completed"
    if (!completed) {
      const first = open.claim(`${enrollment.person} ${enrollment.lesson}`, path)
      if (first !== undefined) {
        keys.problem(`${path}.status`, `"${enrollment.person}" already has lesson "${enrollment.lesson}" in progress (${first})`)
      }
      if (enrollment.completedAt !== undefined) keys.problem(`${path}.completedAt`, "only a completed enrollment has a completedAt")
      if (enrollment.retrainAt !== undefined) keys.problem(`${path}.retrainAt`, "only a completed enrollment has a retrainAt")
    }
    const attemptTimes = enrollment.attempts.map((attempt) => attempt.completedAt)
    const enrolledAt = enrollment.enrolledAt ?? earliest([enrollment.startedAt, enrollment.completedAt, ...attemptTimes, now])
    const completedAt = completed ? enrollment.completedAt ?? latest([now, enrolledAt, enrollment.startedAt]) : null
    const startedAt = enrollment.startedAt ?? (completed ? enrolledAt : null)
    notBefore(keys, `${path}.startedAt`, startedAt, "enrolledAt", enrolledAt)
    notBefore(keys, `${path}.completedAt`, completedAt, "enrolledAt", enrolledAt)
    if (startedAt !== null && completedAt !== null && completedAt >= enrolledAt) {
      notBefore(keys, `${path}.completedAt`, completedAt, "startedAt", startedAt)
    }

    const questions = enrollment.quiz === undefined ? [] : storedQuestions(keys, enrollment.quiz.questions, `${path}.quiz.questions`)
    const ready = enrollment.quiz !== undefined
    quizzes.push({
      org_id,
      enrollment_id: id,
      status: ready ? "READY" : "PENDING",
      difficulty: enrollment.quiz?.difficulty ?? "MODERATE",
      questions: ready ? JSON.stringify(questions) : null,
      generator: ready ? fixtureGenerator : null,
      created_at: enrolledAt,
      ready_at: ready ? enrolledAt : null
    })
    if (!ready) jobs.push({ id: newId("job"), org_id, kind: "quiz.prepare", subject_id: id })

    let last: { readonly at: Date; readonly score: number } | undefined
    for (const [j, attempt] of enrollment.attempts.entries()) {
      const completedAtOfAttempt = attempt.completedAt ?? completedAt ?? latest([now, enrolledAt])
      notBefore(keys, `${path}.attempts[${j}].completedAt`, completedAtOfAttempt, "the enrollment's enrolledAt", enrolledAt)
      const results = attempt.questions ?? resultsFor(questions, attempt.score)
      if (last === undefined || completedAtOfAttempt >= last.at) last = { at: completedAtOfAttempt, score: attempt.score }
      attempts.push({
        org_id,
        id: newId("quizAttempt"),
        enrollment_id: id,
        user_id: userId,
        status: "completed",
        completed_at: completedAtOfAttempt,
        score: attempt.score,
        passed: attempt.passed ?? attempt.score >= passingScore,
        results_summary: attempt.resultsSummary ?? summaryOf(results, attempt.score),
        questions: JSON.stringify(results)
      })
    }

    const interval = intervals.get(enrollment.lesson)
    const retrainAt = !completed || completedAt === null
      ? null
      : enrollment.retrainAt !== undefined
      ? enrollment.retrainAt
      : interval === undefined
      ? null
      : daysAfter(completedAt, interval)
    enrollments.push({
      org_id,
      id,
      user_id: userId,
      lesson_id: lessonId,
      status: enrollment.status,
      enrolled_at: enrolledAt,
      started_at: startedAt,
      completed_at: completedAt,
      score: enrollment.score ?? last?.score ?? null,
      retrain_at: retrainAt,
      assigned_by: enrollment.assignedBy === undefined ? null : keys.ref("person", enrollment.assignedBy, `${path}.assignedBy`) ?? null
    })
  })

  return { enrollments, quizzes, attempts, jobs }
}
