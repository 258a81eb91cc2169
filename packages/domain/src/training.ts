import { Schema } from "effect"
import { Count, EntityRef, Fraction, Timestamp } from "./common.js"
import { EnrollmentId, TeamId, UserId } from "./ids.js"
import { PageParams } from "./page-params.js"
import { MemberStatus } from "./roles.js"

/** What an obligation is owed on. */
export const ObligationItemType = Schema.Literal("lesson", "topic", "item")
export type ObligationItemType = typeof ObligationItemType.Type

/**
 * An obligation as its person sees it. Only active and completed
 * ones are listed (cancelled and waived are not).
 */
export const OwnObligation = Schema.Struct({
  id: Schema.String,
  itemType: ObligationItemType,
  itemId: Schema.String,
  itemName: Schema.String.annotations({ description: "The lesson's title, or the topic's or item's name" }),
  required: Schema.Boolean.annotations({ description: "false when optional" }),
  status: Schema.Literal("active", "completed"),
  dueDate: Schema.NullOr(Timestamp),
  overdue: Schema.Boolean.annotations({ description: "true when active and the due date has passed" }),
  url: Schema.String.annotations({ description: "Web link to the lesson, topic or item owed" }),
  createdAt: Timestamp
}).annotations({ identifier: "OwnObligation" })
export type OwnObligation = typeof OwnObligation.Type

export const EnrollmentStatus = Schema.Literal("in_progress", "completed")
export type EnrollmentStatus = typeof EnrollmentStatus.Type

/** One lesson enrollment. Its id is what GET /v1/enrollments/{id}/quiz-results takes. */
export const Enrollment = Schema.Struct({
  id: Schema.String,
  itemId: Schema.String.annotations({ description: "The lesson's id" }),
  title: Schema.String.annotations({ description: "The lesson's title" }),
  status: EnrollmentStatus,
  completedAt: Schema.NullOr(Timestamp),
  score: Schema.optional(Fraction.annotations({ description: "0 to 1; present only where a score is recorded" })),
  dueDate: Schema.NullOr(Timestamp).annotations({
    description: "The due date of the person's lesson obligation for it: the active one, else the latest"
  }),
  url: Schema.String.annotations({ description: "Web link to the lesson" }),
  enrolledAt: Timestamp
}).annotations({ identifier: "Enrollment" })
export type Enrollment = typeof Enrollment.Type

export const PersonRef = Schema.Struct({ id: Schema.String, name: Schema.String, email: Schema.String })
  .annotations({ identifier: "PersonRef" })
export type PersonRef = typeof PersonRef.Type

/** GET /v1/people/{id}/progress. */
export const PersonProgress = Schema.Struct({
  user: PersonRef,
  enrollments: Schema.Array(Enrollment),
  obligations: Schema.Array(OwnObligation),
  summary: Schema.Struct({
    enrollmentCount: Count,
    completedCount: Count.annotations({ description: "Enrollments completed" }),
    obligationCount: Count.annotations({ description: "Obligations listed (active and completed)" }),
    overdueCount: Count.annotations({ description: "Obligations listed that are overdue" })
  })
}).annotations({ identifier: "PersonProgress" })
export type PersonProgress = typeof PersonProgress.Type

/** A member progress row. */
export const MemberProgress = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  employmentStatus: MemberStatus,
  companyRoles: Schema.Array(EntityRef),
  lessonCount: Count.annotations({ description: "Every lesson enrolled in, finished or not" }),
  popQuizCount: Count.annotations({ description: "Pop quizzes received" }),
  lastReviewDate: Schema.NullOr(Timestamp).annotations({
    description:
      "The newest review about the member; for a member reading their own row, the newest about them that they wrote themself"
  })
}).annotations({ identifier: "MemberProgress" })
export type MemberProgress = typeof MemberProgress.Type

/** GET /v1/members/progress parameters. */
export const MemberProgressParams = Schema.Struct({
  query: Schema.optional(Schema.String.annotations({ description: "Matches anywhere in name or email, case-insensitive" })),
  teamId: Schema.optional(TeamId.annotations({ description: "Only members of this team; a team outside the organization is 400" })),
  ...PageParams.fields
})
export type MemberProgressParams = typeof MemberProgressParams.Type

/** A person's id in the path. */
export const PersonPath = Schema.Struct({ id: UserId })

/** An enrollment's id in the path. */
export const EnrollmentPath = Schema.Struct({ id: EnrollmentId })
