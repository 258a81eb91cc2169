import { Effect } from "effect"
import { Lessons } from "@tks/core/lessons/service"
import { TrainingTools } from "../contract/training.js"
import { asToolCaller } from "./as-tool-caller.js"

export const TrainingToolsLive = TrainingTools.toLayer(
  Effect.gen(function*() {
    const lessons = yield* Lessons
    return {
      list_lessons: (input) => asToolCaller((access) => lessons.list(access, input)),
      get_lesson: ({ lessonId }) => asToolCaller((access) => lessons.get(access, lessonId))
    }
  })
)
