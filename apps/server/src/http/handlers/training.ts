import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { PopQuizReads } from "@tks/core/pop-quizzes/service"
import { Training } from "@tks/core/training/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const TrainingHandlers = group(Api, "training", (handlers) =>
  Effect.gen(function*() {
    const training = yield* Training
    const popQuizzes = yield* PopQuizReads
    return handlers
      .handle("myObligations", () => asCaller((access) => training.myObligations(access)))
      .handle("myEnrollments", () => asCaller((access) => training.myEnrollments(access)))
      .handle("myPopQuizzes", () => asCaller((access) => popQuizzes.mine(access)))
      .handle("progress", ({ path }) => asCaller((access) => training.progress(access, path.id)))
      .handle("quizResults", ({ path, urlParams }) =>
        asCaller((access) => training.quizResults(access, path.id, urlParams)))
  }))
