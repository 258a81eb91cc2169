import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { ContentReview } from "@tks/core/content-review/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const ContentReviewHandlers = group(Api, "contentReview", (handlers) =>
  Effect.gen(function*() {
    const review = yield* ContentReview
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => review.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => review.get(access, path.id)))
      .handle("approve", ({ path, payload }) => asCaller((access) => review.approve(access, path.id, payload)))
      .handle("reject", ({ path, payload }) => asCaller((access) => review.reject(access, path.id, payload.note)))
      .handle("requestChanges", ({ path, payload }) => asCaller((access) => review.requestChanges(access, path.id, payload.note)))
      .handle("cancel", ({ path }) => asCaller((access) => review.cancel(access, path.id)))
  }))
