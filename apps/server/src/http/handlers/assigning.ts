import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Assigning } from "@tks/core/assigning/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const AssigningHandlers = group(Api, "assigning", (handlers) =>
  Effect.gen(function*() {
    const assigning = yield* Assigning
    return handlers
      .handle("assign", ({ path, payload }) => asCaller((access) => assigning.assign(access, path.id, payload)))
      .handle("unassign", ({ path, payload }) => asCaller((access) => assigning.unassign(access, path.id, payload)))
      .handle("setRetrainingPolicy", ({ path, payload }) =>
        asCaller((access) => assigning.setRetrainingPolicy(access, path.id, payload)))
      .handle("createKnowledgeObligation", ({ payload }) =>
        asCaller((access) => assigning.createKnowledgeObligation(access, payload)))
      .handle("assignRetraining", ({ payload }) => asCaller((access) => assigning.assignRetraining(access, payload)))
      .handle("waive", ({ path, payload }) => asCaller((access) => assigning.waive(access, path.id, payload)))
      .handle("cancel", ({ path, payload }) => asCaller((access) => assigning.cancel(access, path.id, payload)))
      .handle("setDueDate", ({ path, payload }) => asCaller((access) => assigning.setDueDate(access, path.id, payload)))
      .handle("confirmReview", ({ path, payload }) =>
        asCaller((access) => assigning.confirmReview(access, path.id, payload)))
  }))
