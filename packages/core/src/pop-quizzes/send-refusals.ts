import { BadRequest, ServiceUnavailable } from "@tks/domain/errors"
import { type PopQuizRequest, PopQuizSendCode, planDifficulties } from "@tks/domain/pop-quiz-send"
import type { QuizDifficulty } from "@tks/domain/quiz"
import type { Plan } from "@tks/domain/roles"
import { AssigningCode } from "../assigning/refusals.js"
import { idList } from "../assigning/reach.js"

/**
 * POST /v1/pop-quizzes' refusals, each before anything is
 * written. contentId is a field of the body, so an unknown one is a 400 like
 * an unknown team, person or topic, not a 404 of the path.
 */
export const unknownContent = () =>
  new BadRequest({
    code: PopQuizSendCode.unknownContent,
    message: "Unknown contentId: no published video, document or guide of this organization has this id"
  })

export const dueDateNotInFuture = (body: PopQuizRequest) =>
  new BadRequest({ code: PopQuizSendCode.dueDateNotInFuture, message: `dueDate must be in the future; ${body.dueDate} is not` })

export const difficultyNotInPlan = (plan: Plan, difficulty: QuizDifficulty) =>
  new BadRequest({
    code: PopQuizSendCode.difficultyNotInPlan,
    message: `The ${plan} plan includes the difficulties ${planDifficulties[plan].join(", ")}; ${difficulty} needs a plan that includes it`
  })

export const nobodyToQuiz = () =>
  new BadRequest({
    code: AssigningCode.nobodyReached,
    message: "Nobody can be reached: everyone in this audience has left the organization (or it has nobody in it). Nothing was sent."
  })

export const cannotSeeContent = (userIds: ReadonlyArray<string>) =>
  new BadRequest({
    code: PopQuizSendCode.cannotSeeContent,
    message: `Everyone reached must be able to see the content; these people cannot: ${idList(userIds)}. Nothing was sent.`
  })

export const generationFailed = (reason: string) =>
  new ServiceUnavailable({
    code: PopQuizSendCode.generationFailed,
    message: `Questions cannot be written now (${reason}). Nothing was created; it is safe to try again.`
  })
