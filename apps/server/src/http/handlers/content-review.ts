import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { ContentReview } from "@tks/core/content-review/service"
import { ReviewRequestId } from "@tks/domain/ids"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const ContentReviewHandlers = group(Api, "contentReview", (handlers) =>
  Effect.gen(function*() {
    const review = yield* ContentReview
    const idOf = (path: { readonly id: string }) => ReviewRequestId.make(path.id)
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => review.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => review.get(access, idOf(path))))
      .handle("approve", ({ path, payload }) => asCaller((access) => review.approve(access, idOf(path), payload)))
      .handle("reject", ({ path, payload }) => asCaller((access) => review.reject(access, idOf(path), payload.note)))
      .handle("requestChanges", ({ path, payload }) => asCaller((access) => review.requestChanges(access, idOf(path), payload.note)))
      .handle("cancel", ({ path }) => asCaller((access) => review.cancel(access, idOf(path))))
  }))
