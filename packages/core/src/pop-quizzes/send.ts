import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { QuestionGenerator } from "@tks/adapters/questions/port"
import { Caller } from "@tks/domain/caller"
import { parseOffsetDateTime } from "@tks/domain/due-date"
import { OrganizationId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { planIncludes, type PopQuizRequest, type PopQuizSent, popQuizPrompt, popQuizTitle } from "@tks/domain/pop-quiz-send"
import { defaultQuizDifficulty } from "@tks/domain/quiz"
import { admitAudience } from "../assigning/admission.js"
import { AssigningPeopleRepo } from "../assigning/people-repo.js"
import { JobsRepo } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { newId } from "../common/ids.js"
import { Links } from "../common/links.js"
import { iso } from "../common/time.js"
import { generateQuestions } from "./generate.js"
import { PopQuizMaterial } from "./material-repo.js"
import { PopQuizSendRepo } from "./send-repo.js"
import {
  cannotSeeContent,
  difficultyNotInPlan,
  dueDateNotInFuture,
  generationFailed,
  nobodyToQuiz,
  unknownContent
} from "./send-refusals.js"
import { traced } from "../common/traced.js"

/**
 * POST /v1/pop-quizzes, for organization admins
 * (`policies.popQuizzes.send`). In order, each refusal before anything is
 * written:
 *
 * 1. the route's rate limit (429), counted by the transport before the act;
 * 2. the content: published and of this organization (else 400
 *    UNKNOWN_CONTENT); the due date in the future and the difficulty in the
 *    organization's plan (400);
 * 3. the audience, with the assigning acts' own checks (admission.ts: 400
 *    Unknown teamId, UNKNOWN_USER, PERSON_DEACTIVATED for a named person who
 *    left); everyone active in it is reached (people who left are quietly
 *    left out with everyone and teams), nobody is 400, and everyone reached
 *    must be able to see the content, else 400 naming who;
 * 4. "questions can be started": the content has something to ask about and
 *    the generator writes a question on it (one question, seeded by the
 *    quiz, thrown away): else 503 POP_QUIZ_GENERATION_FAILED with nothing
 *    created. It runs outside any transaction: an LLM may take seconds;
 * 5. one transaction: the quiz, a recipient row per person (questions
 *    PENDING) and a "pop-quiz.prepare" job each (preparation.ts writes their
 *    questions and tells them), and the act's audit row and `pop_quiz.sent`.
 */
export class PopQuizSending extends Effect.Service<PopQuizSending>()("@tks/core/PopQuizSending", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* PopQuizSendRepo
    const people = yield* AssigningPeopleRepo
    const material = yield* PopQuizMaterial
    const generator = yield* QuestionGenerator
    const jobs = yield* JobsRepo
    const links = yield* Links
    const journal = yield* Journal

    /** Whether questions can be written on the content now; the failure is the 503. */
    const probe = traced("PopQuizSending.probe")(function*(
      orgId: OrganizationId,
      contentId: string,
      quizId: string,
      body: PopQuizRequest
    ) {
      const found = yield* material.of(orgId, contentId)
      if (found === undefined) return yield* generationFailed("the content is gone")
      yield* generateQuestions(generator, found, { difficulty: body.difficulty ?? defaultQuizDifficulty, count: 1, seed: quizId }).pipe(
        Effect.mapError((error) => generationFailed(error.reason))
      )
    })

    const send = (access: Access, body: PopQuizRequest) =>
      Effect.gen(function*() {
        const orgId = OrganizationId.make(access.actor.organizationId)
        const content = yield* repo.subject(access.actor, body.contentId)
        if (content === undefined) return yield* unknownContent()
        const dueDate = parseOffsetDateTime(body.dueDate)
        if (dueDate === undefined || dueDate <= content.now) return yield* dueDateNotInFuture(body)
        const difficulty = body.difficulty ?? defaultQuizDifficulty
        if (!planIncludes(content.plan, difficulty)) return yield* difficultyNotInPlan(content.plan, difficulty)

        const audience = yield* admitAudience(people, access, body, { lessonId: null, rule: "active" })
        const reached = yield* repo.reached(orgId, content.id, audience)
        if (reached.length === 0) return yield* nobodyToQuiz()
        const blind = reached.filter((row) => !row.can_see).map((row) => row.user_id)
        if (blind.length > 0) return yield* cannotSeeContent(blind)

        const id = newId("popQuiz")
        yield* probe(orgId, content.id, id, body)

        const title = popQuizTitle(content.title)
        const userIds = reached.map((row) => row.user_id)
        yield* sql.withTransaction(Effect.gen(function*() {
          const recipientIds = yield* repo.insert({
            orgId,
            id,
            contentId: content.id,
            title,
            prompt: popQuizPrompt(content.title),
            difficulty,
            dueDate,
            sentBy: access.actor.userId,
            recipientIds: userIds.map(() => newId("popQuizRecipient")),
            userIds
          })
          yield* jobs.enqueueMany({ orgId, kind: "pop-quiz.prepare", subjectIds: recipientIds })
          yield* journal.record({
            caller: Caller.person(access),
            orgId,
            action: "pop_quiz.sent",
            targets: [{ type: "pop_quiz", id }, { type: "content", id: content.id }],
            changes: { dueDate: { new: iso(dueDate) }, difficulty: { new: difficulty } },
            events: [{
              type: "pop_quiz.sent",
              data: {
                popQuiz: { id, title, dueDate: iso(dueDate), recipients: recipientIds.length },
                content: { id: content.id, title: content.title, kind: content.kind }
              }
            }]
          })
        }))
        const sent: PopQuizSent = { id, title, dueDate: iso(dueDate), url: links.popQuiz(id) }
        return sent
      })

    return {
      send: (access: Access, body: PopQuizRequest) => send(access, body).pipe(Effect.withSpan("PopQuizSending.send"))
    } as const
  }),
  dependencies: [
    PopQuizSendRepo.Default,
    AssigningPeopleRepo.Default,
    PopQuizMaterial.Default,
    JobsRepo.Default,
    Links.Default,
    Journal.Default
  ]
}) {}
