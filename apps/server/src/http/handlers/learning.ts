import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Learning } from "@tks/core/learning/service"
import { PopQuizLearner } from "@tks/core/pop-quizzes/learner"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const LearningHandlers = group(Api, "learning", (handlers) =>
  Effect.gen(function*() {
    const learning = yield* Learning
    const popQuizzes = yield* PopQuizLearner
    return handlers
      .handle("startLesson", ({ path }) =>
        asCaller((access) => learning.startLesson(access, path.id)).pipe(
          // 201 for a new enrollment; the contract declares both statuses with the same body.
          Effect.map(({ created, enrollment }) => created ? HttpServerResponse.unsafeJson(enrollment, { status: 201 }) : enrollment)
        ))
      .handle("quiz", ({ path }) => asCaller((access) => learning.quiz(access, path.id)))
      .handle("submitQuiz", ({ path, payload }) => asCaller((access) => learning.submit(access, path.id, payload)))
      .handle("startPopQuiz", ({ path }) => asCaller((access) => popQuizzes.start(access, path.id)))
      .handle("answerPopQuiz", ({ path, payload }) => asCaller((access) => popQuizzes.answer(access, path.id, payload)))
  }))
