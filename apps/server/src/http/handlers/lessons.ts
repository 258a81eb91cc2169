import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Lessons } from "@tks/core/lessons/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const LessonsHandlers = group(Api, "lessons", (handlers) =>
  Effect.gen(function*() {
    const lessons = yield* Lessons
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => lessons.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => lessons.get(access, path.id)))
      .handle("retrainingPolicy", ({ path }) => asCaller((access) => lessons.retrainingPolicy(access, path.id)))
  }))
