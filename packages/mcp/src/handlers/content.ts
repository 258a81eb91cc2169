import { Effect } from "effect"
import { ContentReview } from "@tks/core/content-review/service"
import { ContentLibrary } from "@tks/core/content/service"
import { ContentTools } from "../contract/content.js"
import { asToolCaller } from "./as-tool-caller.js"

export const ContentToolsLive = ContentTools.toLayer(
  Effect.gen(function*() {
    const library = yield* ContentLibrary
    const review = yield* ContentReview
    return {
      list_content: (input) => asToolCaller((access) => library.list(access, input)),
      get_content: ({ contentId }) => asToolCaller((access) => library.get(access, contentId)),
      get_content_text: ({ contentId }) => asToolCaller((access) => library.text(access, contentId)),
      get_content_knowledge: ({ contentId }) => asToolCaller((access) => library.knowledge(access, contentId)),
      get_content_usage: ({ contentId }) => asToolCaller((access) => library.usage(access, contentId)),
      list_content_review_requests: (input) => asToolCaller((access) => review.list(access, input)),
      get_content_review_request: ({ requestId }) =>
        asToolCaller((access) => review.get(access, requestId))
    }
  })
)
