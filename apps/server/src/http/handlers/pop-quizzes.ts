import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { PopQuizSending } from "@tks/core/pop-quizzes/send"
import { PopQuizReads } from "@tks/core/pop-quizzes/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const PopQuizzesHandlers = group(Api, "popQuizzes", (handlers) =>
  Effect.gen(function*() {
    const reads = yield* PopQuizReads
    const sending = yield* PopQuizSending
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => reads.list(access, urlParams)))
      .handle("send", ({ payload }) => asCaller((access) => sending.send(access, payload)))
      .handle("get", ({ path }) => asCaller((access) => reads.get(access, path.id)))
  }))
