import { Layer } from "effect"
import { Administration } from "./administration/service.js"
import { Assigning } from "./assigning/service.js"
import { Authenticator } from "./auth/service.js"
import { DirectoryConnections } from "./directory/connections.js"
import { DirectoryEvents } from "./directory/events.js"
import { CompanyRoles } from "./company-roles/service.js"
import { ContentReview } from "./content-review/service.js"
import { ContentLibrary } from "./content/service.js"
import { EntityDuties } from "./duties/entity-duties.js"
import { Documents } from "./intake/documents.js"
import { DataQualityIssues } from "./issues/service.js"
import { Videos } from "./intake/videos.js"
import { Learning } from "./learning/service.js"
import { Idempotency } from "./idempotency/service.js"
import { IdempotencySweepLive } from "./idempotency/sweep.js"
import { EvidencePlaces } from "./knowledge/evidence-places.js"
import { KnowledgeGraph } from "./knowledge/service.js"
import { Lessons } from "./lessons/service.js"
import { KnowledgeMaturity } from "./maturity/service.js"
import { LearningQueue } from "./learning-queue/service.js"
import { Me } from "./me/service.js"
import { MemberProgressList } from "./members/progress.js"
import { Members } from "./members/service.js"
import { NarrationReaperLive } from "./narration/reaper.js"
import { Narration } from "./narration/service.js"
import { OAuthResource } from "./oauth/service.js"
import { OrganizationDomains } from "./organization-domains/service.js"
import { ScimGroups } from "./scim/groups.js"
import { ScimUsers } from "./scim/users.js"
import { PopQuizLearner } from "./pop-quizzes/learner.js"
import { PopQuizSending } from "./pop-quizzes/send.js"
import { PopQuizReads } from "./pop-quizzes/service.js"
import { NotificationOutbox } from "./notifications/outbox.js"
import { ContentProcessing } from "./processing/service.js"
import { RateLimiter } from "./rate-limits/service.js"
import { RateLimitSweepLive } from "./rate-limits/sweep.js"
import { Journal } from "./journal/journal.js"
import { JournalReads } from "./journal/reads.js"
import { EventSweepLive } from "./journal/sweep.js"
import { Search } from "./search/service.js"
import { Teams } from "./teams/service.js"
import { ThirdParties } from "./third-parties/service.js"
import { Training } from "./training/service.js"
import { WebhookEndpoints } from "./webhooks/service.js"
import { WebhookFanout } from "./webhooks/fanout.js"

/**
 * Every domain service, for any transport (HTTP, MCP, jobs). Needs a
 * SqlClient, and the outside-world ports (PageFetcher, VideoCatalog,
 * SpeechSynthesizer, QuestionGenerator and WebhookSender from @tks/adapters), which the
 * composition provides. NotificationOutbox only writes the outbox; the job
 * workers deliver it (apps/server/src/workers.ts, with MailSender and SmsSender).
 */
export const CoreLive = Layer.mergeAll(
  Administration.Default,
  Assigning.Default,
  Authenticator.Default,
  DirectoryConnections.Default,
  DirectoryEvents.Default,
  CompanyRoles.Default,
  ThirdParties.Default,
  EntityDuties.Default,
  ContentLibrary.Default,
  ContentProcessing.Default,
  Me.Default,
  Members.Default,
  Teams.Default,
  RateLimiter.Default,
  RateLimitSweepLive,
  Idempotency.Default,
  IdempotencySweepLive,
  Documents.Default,
  Videos.Default,
  ContentReview.Default,
  DataQualityIssues.Default,
  KnowledgeGraph.Default,
  EvidencePlaces.Default,
  KnowledgeMaturity.Default,
  Search.Default,
  Narration.Default,
  OAuthResource.Default,
  OrganizationDomains.Default,
  ScimGroups.Default,
  ScimUsers.Default,
  NarrationReaperLive,
  Lessons.Default,
  Training.Default,
  MemberProgressList.Default,
  PopQuizReads.Default,
  PopQuizSending.Default,
  PopQuizLearner.Default,
  NotificationOutbox.Default,
  Learning.Default,
  LearningQueue.Default,
  Journal.Default,
  JournalReads.Default,
  EventSweepLive,
  WebhookEndpoints.Default,
  WebhookFanout.Default
)
