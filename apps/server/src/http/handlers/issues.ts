import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { DataQualityIssues } from "@tks/core/issues/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const IssuesHandlers = group(Api, "issues", (handlers) =>
  Effect.gen(function*() {
    const issues = yield* DataQualityIssues
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => issues.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => issues.get(access, path.id)))
  }))
