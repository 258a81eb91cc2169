import { planDifficulties, popQuizPrompt, popQuizTitle } from "@tks/domain/pop-quiz-send"
import { canRead, type Reader } from "@tks/domain/visibility"
import { newId } from "../common/ids.js"
import { fixedQuestions, fixtureGenerator, storedQuestions } from "./plan-questions.js"
import { earliest, latest, notBefore } from "./plan-training-rules.js"
import type { PlanContext, Row } from "./plan-types.js"

/**
 * pop_quizzes and pop_quiz_recipients, plus a "pop-quiz.prepare" job for
 * each recipient whose questions are still to be written. A recipient who
 * has started or finished has questions by definition: the fixture's, or a
 * small fixed set about the content. Everyone reached must be able to read
 * the content, as when the quiz is sent.
 */
export const planPopQuizzes = (ctx: PlanContext) => {
  const { fixture, keys, organizationId: org_id, now, at } = ctx
  const contentOf = new Map(fixture.content.map((record) => [record.key, record]))
  const allowed = planDifficulties[fixture.organization.plan]
  // A reader's teams by team key: the content's teams are keys too.
  const teamsOf = new Map<string, Array<string>>()
  for (const team of fixture.teams) for (const member of team.members) teamsOf.set(member.person, [...(teamsOf.get(member.person) ?? []), team.key])
  const roles = new Map(fixture.people.map((person) => [person.key, person.role]))
  const readerOf = (key: string): Reader | undefined => {
    const role = roles.get(key)
    return role === undefined ? undefined : { role, teamIds: teamsOf.get(key) ?? [] }
  }

  const popQuizzes: Array<Row> = []
  const recipients: Array<Row> = []
  const jobs: Array<Row> = []

  fixture.popQuizzes.forEach((quiz, i) => {
    const path = at("popQuizzes", i)
    const id = keys.ref("popQuiz", quiz.key, `${path}.key`) ?? ""
    const content = contentOf.get(quiz.content)
    const contentId = keys.ref("content", quiz.content, `${path}.content`) ?? ""
    if (content !== undefined && content.status !== "published") {
      keys.problem(`${path}.content`, `content "${quiz.content}" is ${content.status}; a pop quiz is on published content`)
    }
    if (!allowed.includes(quiz.difficulty)) {
      keys.problem(`${path}.difficulty`, `the ${fixture.organization.plan} plan allows ${allowed.join(", ")}`)
    }
    const createdAt = quiz.createdAt ?? earliest([quiz.dueDate, ...quiz.recipients.map((recipient) => recipient.completedAt), now])
    notBefore(keys, `${path}.dueDate`, quiz.dueDate, "createdAt", createdAt)
    const title = content?.title ?? quiz.content
    popQuizzes.push({
      org_id,
      id,
      content_id: contentId,
      title: quiz.title ?? popQuizTitle(title),
      prompt: quiz.prompt ?? popQuizPrompt(title),
      difficulty: quiz.difficulty,
      due_date: quiz.dueDate,
      sent_by: quiz.sentBy === undefined ? null : keys.ref("person", quiz.sentBy, `${path}.sentBy`) ?? null,
      announcement_id: quiz.announcementId ?? null,
      created_at: createdAt
    })

    const seen = new Set<string>()
    quiz.recipients.forEach((recipient, j) => {
      const at = `${path}.recipients[${j}]`
      const userId = keys.ref("person", recipient.person, `${at}.person`)
      if (seen.has(recipient.person)) keys.problem(`${at}.person`, `"${recipient.person}" is listed twice in this pop quiz`)
      seen.add(recipient.person)
      const reader = readerOf(recipient.person)
      if (reader !== undefined && content !== undefined && !canRead(reader, content.visibility, content.teams)) {
        keys.problem(`${at}.person`, `"${recipient.person}" cannot read content "${quiz.content}"`)
      }
      const completed = recipient.status === "COMPLETED"
      if (completed && recipient.score === undefined) keys.problem(`${at}.score`, "a COMPLETED recipient has a score")
      if (!completed && recipient.score !== undefined) keys.problem(`${at}.score`, "only a COMPLETED recipient has a score")
      if (!completed && recipient.completedAt !== undefined) keys.problem(`${at}.completedAt`, "only a COMPLETED recipient has a completedAt")
      const completedAt = completed ? recipient.completedAt ?? latest([createdAt, now]) : null
      notBefore(keys, `${at}.completedAt`, completedAt, "the quiz's createdAt", createdAt)

      const questions = recipient.questions !== undefined
        ? storedQuestions(keys, recipient.questions, `${at}.questions`)
        : recipient.status === "not_started"
        ? undefined
        : fixedQuestions(title)
      const recipientId = newId("popQuizRecipient")
      if (questions === undefined) jobs.push({ id: newId("job"), org_id, kind: "pop-quiz.prepare", subject_id: recipientId })
      if (userId === undefined) return
      recipients.push({
        org_id,
        pop_quiz_id: id,
        user_id: userId,
        id: recipientId,
        status: recipient.status,
        generation_status: questions === undefined ? "PENDING" : "READY",
        questions: questions === undefined ? null : JSON.stringify(questions),
        generator: questions === undefined ? null : fixtureGenerator,
        ready_at: questions === undefined ? null : createdAt,
        started_at: recipient.status === "not_started" ? null : createdAt,
        completed_at: completedAt,
        score: recipient.score ?? null
      })
    })
  })

  return { popQuizzes, recipients, jobs }
}
