import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { LearningQueue } from "@tks/core/learning-queue/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const LearningQueueHandlers = group(Api, "learningQueue", (handlers) =>
  Effect.gen(function*() {
    const queue = yield* LearningQueue
    return handlers
      .handle("mine", ({ urlParams }) => asCaller((access) => queue.mine(access, urlParams)))
      .handle("person", ({ path, urlParams }) =>
        asCaller((access) => queue.forPerson(access, path.id, urlParams)))
  }))
