import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { PopQuizReads } from "@tks/core/pop-quizzes/service"
import { PopQuizId } from "@tks/domain/ids"
import { asCaller } from "../as-caller.js"

export const PopQuizzesHandlers = HttpApiBuilder.group(Api, "popQuizzes", (handlers) =>
  Effect.gen(function*() {
    const reads = yield* PopQuizReads
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => reads.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => reads.get(access, PopQuizId.make(path.id))))
  }))
