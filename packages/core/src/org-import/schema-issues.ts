import { Schema } from "effect"
import { IssueSeverity, IssueStatus, IssueType, ResolutionStrategy } from "@tks/domain/issue"
import { CategorySlug } from "@tks/domain/knowledge"
import { Key, Text, withDefault } from "./schema-common.js"
import { Timestamp } from "./timestamp.js"

/**
 * The `issues` section of the organization fixture (docs/fixtures.md):
 * data-quality issues, their targets by the fixture's own keys (a category
 * by its slug), and who is assigned, a person or a company role.
 */
export const FixtureIssueTarget = Schema.Union(
  Schema.Struct({ topic: Key }),
  Schema.Struct({ item: Key }),
  Schema.Struct({ space: Key }),
  Schema.Struct({ category: CategorySlug }),
  Schema.Struct({ content: Key })
)
export type FixtureIssueTarget = typeof FixtureIssueTarget.Type

export const FixtureIssue = Schema.Struct({
  /** Optional: lets the import report the issue's id (ids.issues). */
  key: Schema.optional(Key),
  type: IssueType,
  severity: IssueSeverity,
  status: withDefault(IssueStatus, () => "OPEN" as const),
  title: Text,
  description: withDefault(Schema.NullOr(Schema.String), () => null),
  /** What the issue is about, in order; each record at most once. */
  targets: withDefault(Schema.Array(FixtureIssueTarget), () => []),
  assignee: Schema.optional(Schema.Union(Schema.Struct({ person: Key }), Schema.Struct({ role: Key }))),
  /** Required when the status is RESOLVED or DISMISSED, refused otherwise. `resolvedAt` defaults to `updatedAt`. */
  resolution: Schema.optional(
    Schema.Struct({
      strategy: ResolutionStrategy,
      note: withDefault(Schema.NullOr(Schema.String), () => null),
      resolvedAt: Schema.optional(Timestamp)
    })
  ),
  createdAt: Schema.optional(Timestamp),
  updatedAt: Schema.optional(Timestamp)
})
export type FixtureIssue = typeof FixtureIssue.Type
