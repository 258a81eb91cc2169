import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Learning } from "@tks/core/learning/service"
import { asCaller } from "../as-caller.js"

export const LearningHandlers = HttpApiBuilder.group(Api, "learning", (handlers) =>
  Effect.gen(function*() {
    const learning = yield* Learning
    return handlers
      .handle("startLesson", ({ path }) =>
        asCaller((access) => learning.startLesson(access, path.id)).pipe(
          // 201 for a new enrollment; the contract declares both statuses with the same body.
          Effect.map(({ created, enrollment }) => created ? HttpServerResponse.unsafeJson(enrollment, { status: 201 }) : enrollment)
        ))
      .handle("quiz", ({ path }) => asCaller((access) => learning.quiz(access, path.id)))
      .handle("submitQuiz", ({ path, payload }) => asCaller((access) => learning.submit(access, path.id, payload)))
  }))
