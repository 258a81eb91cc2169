import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Documents } from "@tks/core/intake/documents"
import { asCaller } from "../as-caller.js"
import { withRateLimitHeaders } from "../rate-limit.js"
import { group } from "../wire-answers.js"

export const DocumentsHandlers = group(Api, "documents", (handlers) =>
  Effect.gen(function*() {
    const documents = yield* Documents
    return handlers
      .handle("create", ({ payload }) => asCaller((access) => documents.submit(access, payload, withRateLimitHeaders)))
      .handle("fromUrl", ({ payload }) => asCaller((access) => documents.submitFromUrl(access, payload, withRateLimitHeaders)))
  }))
