import { Effect } from "effect"
import { DataQualityIssues } from "@tks/core/issues/service"
import { KnowledgeMaturity } from "@tks/core/maturity/service"
import { QualityTools } from "../contract/quality.js"
import { asToolCaller } from "./as-tool-caller.js"

export const QualityToolsLive = QualityTools.toLayer(
  Effect.gen(function*() {
    const issues = yield* DataQualityIssues
    const maturity = yield* KnowledgeMaturity
    return {
      list_issues: (input) => asToolCaller((access) => issues.list(access, input)),
      get_issue: ({ issueId }) => asToolCaller((access) => issues.get(access, issueId)),
      get_maturity: (input) => asToolCaller((access) => maturity.get(access, input)),
      list_category_health: () => asToolCaller((access) => maturity.categoryHealth(access))
    }
  })
)
