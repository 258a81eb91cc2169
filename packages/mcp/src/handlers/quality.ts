import { Effect } from "effect"
import { DataQualityIssues } from "@tks/core/issues/service"
import { IssueId } from "@tks/domain/ids"
import { QualityTools } from "../contract/quality.js"
import { asToolCaller } from "./as-tool-caller.js"

export const QualityToolsLive = QualityTools.toLayer(
  Effect.gen(function*() {
    const issues = yield* DataQualityIssues
    return {
      list_issues: (input) => asToolCaller((access) => issues.list(access, input)),
      get_issue: ({ issueId }) => asToolCaller((access) => issues.get(access, IssueId.make(issueId)))
    }
  })
)
