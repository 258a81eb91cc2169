import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Documents } from "@tks/core/intake/documents"
import { asCaller } from "../as-caller.js"
import { withAllowanceHeaders } from "../rate-limit.js"
import { group } from "../wire-answers.js"

export const DocumentsHandlers = group(Api, "documents", (handlers) =>
  Effect.gen(function*() {
    const documents = yield* Documents
    return handlers
      .handle("create", ({ payload }) => asCaller((access) => withAllowanceHeaders(documents.submit(access, payload))))
      .handle("fromUrl", ({ payload }) => asCaller((access) => withAllowanceHeaders(documents.submitFromUrl(access, payload))))
  }))
