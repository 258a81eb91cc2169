import { Schema } from "effect"

/**
 * Ids are opaque strings with a typed prefix (`usr_…`, `rol_…`), random so
 * they never leak row order. Ids arriving from callers are not pattern
 * checked: an id that is not ours is simply absent (404), never a 400.
 */
const id = <const B extends string>(brand: B) => Schema.String.pipe(Schema.brand(brand))

export const OrganizationId = id("OrganizationId")
export type OrganizationId = typeof OrganizationId.Type
export const UserId = id("UserId")
export type UserId = typeof UserId.Type
export const TeamId = id("TeamId")
export type TeamId = typeof TeamId.Type
export const CompanyRoleId = id("CompanyRoleId")
export type CompanyRoleId = typeof CompanyRoleId.Type
export const AdvancementTierId = id("AdvancementTierId")
export type AdvancementTierId = typeof AdvancementTierId.Type
export const ThirdPartyId = id("ThirdPartyId")
export type ThirdPartyId = typeof ThirdPartyId.Type
export const CategoryId = id("CategoryId")
export type CategoryId = typeof CategoryId.Type
export const SpaceId = id("SpaceId")
export type SpaceId = typeof SpaceId.Type
export const TopicId = id("TopicId")
export type TopicId = typeof TopicId.Type
export const ItemId = id("ItemId")
export type ItemId = typeof ItemId.Type
export const LessonId = id("LessonId")
export type LessonId = typeof LessonId.Type
export const FindingId = id("FindingId")
export type FindingId = typeof FindingId.Type
export const AccessTokenId = id("AccessTokenId")
export type AccessTokenId = typeof AccessTokenId.Type
export const ContentId = id("ContentId")
export type ContentId = typeof ContentId.Type
export const ChapterId = id("ChapterId")
export type ChapterId = typeof ChapterId.Type
export const EvidenceId = id("EvidenceId")
export type EvidenceId = typeof EvidenceId.Type
export const ReviewRequestId = id("ReviewRequestId")
export type ReviewRequestId = typeof ReviewRequestId.Type
export const JobId = id("JobId")
export type JobId = typeof JobId.Type
export const NarrationRequestId = id("NarrationRequestId")
export type NarrationRequestId = typeof NarrationRequestId.Type
export const EnrollmentId = id("EnrollmentId")
export type EnrollmentId = typeof EnrollmentId.Type
export const ObligationId = id("ObligationId")
export type ObligationId = typeof ObligationId.Type
export const QuizAttemptId = id("QuizAttemptId")
export type QuizAttemptId = typeof QuizAttemptId.Type
export const PopQuizId = id("PopQuizId")
export type PopQuizId = typeof PopQuizId.Type
export const MemberReviewId = id("MemberReviewId")
export type MemberReviewId = typeof MemberReviewId.Type
export const NotificationId = id("NotificationId")
export type NotificationId = typeof NotificationId.Type
export const IssueId = id("IssueId")
export type IssueId = typeof IssueId.Type
export const EventId = id("EventId")
export type EventId = typeof EventId.Type
export const AuditEventId = id("AuditEventId")
export type AuditEventId = typeof AuditEventId.Type
export const WebhookEndpointId = id("WebhookEndpointId")
export type WebhookEndpointId = typeof WebhookEndpointId.Type
export const WebhookDeliveryId = id("WebhookDeliveryId")
export type WebhookDeliveryId = typeof WebhookDeliveryId.Type

/** The prefix each kind of record's id carries. */
export const IdPrefix = {
  organization: "org",
  user: "usr",
  team: "team",
  companyRole: "rol",
  advancementTier: "tier",
  thirdParty: "tp",
  category: "cat",
  space: "spc",
  topic: "top",
  item: "itm",
  lesson: "les",
  duty: "dty",
  finding: "fnd",
  invitation: "inv",
  accessToken: "tok",
  directoryEvent: "dev",
  curriculumEntry: "cur",
  content: "cnt",
  chapter: "chp",
  evidence: "evd",
  reviewRequest: "crr",
  job: "job",
  narrationRequest: "nar",
  enrollment: "enr",
  obligation: "obl",
  quizAttempt: "qat",
  popQuiz: "pq",
  popQuizRecipient: "pqr",
  memberReview: "rev",
  notification: "ntf",
  issue: "iss",
  event: "evt",
  auditEvent: "aud",
  webhookEndpoint: "ep",
  webhookDelivery: "whd"
} as const
export type IdKind = keyof typeof IdPrefix
