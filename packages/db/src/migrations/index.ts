import type { Effect } from "effect"
import type { SqlClient } from "@effect/sql"
import initial from "./0001_initial.js"
import rateLimits from "./0002_rate_limits.js"
import content from "./0003_content.js"
import narration from "./0004_narration.js"
import training from "./0005_training.js"
import notifications from "./0006_notifications.js"
import trainingReads from "./0007_training_reads.js"
import obligationComputedDue from "./0008_obligation_computed_due.js"
import lessonTopics from "./0009_lesson_topics.js"
import learningQueueSpeed from "./0010_learning_queue_speed.js"
import topicLearning from "./0011_topic_learning.js"
import topicLearningVersions from "./0012_topic_learning_versions.js"
import dataQualityIssues from "./0013_data_quality_issues.js"
import thirdParties from "./0014_third_parties.js"
import rateLimitCountersUnlogged from "./0015_rate_limit_counters_unlogged.js"
import memberCounts from "./0016_member_counts.js"
import jobTraceContext from "./0017_job_trace_context.js"
import itemPositions from "./0018_item_positions.js"
import oauthSettings from "./0019_oauth_settings.js"
import eventsAudit from "./0020_events_audit.js"
import idempotencyKeys from "./0021_idempotency_keys.js"
import webhooks from "./0022_webhooks.js"
import jobClaims from "./0023_job_claims.js"
import scimResources from "./0024_scim_resources.js"
import organizationDomains from "./0025_organization_domains.js"
import directoryTokens from "./0026_directory_tokens.js"

/** Forward-only, append-only migrations, keyed `<id>_<name>` as the Migrator expects. */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_initial": initial,
  "0002_rate_limits": rateLimits,
  "0003_content": content,
  "0004_narration": narration,
  "0005_training": training,
  "0006_notifications": notifications,
  "0007_training_reads": trainingReads,
  "0008_obligation_computed_due": obligationComputedDue,
  "0009_lesson_topics": lessonTopics,
  "0010_learning_queue_speed": learningQueueSpeed,
  "0011_topic_learning": topicLearning,
  "0012_topic_learning_versions": topicLearningVersions,
  "0013_data_quality_issues": dataQualityIssues,
  "0014_third_parties": thirdParties,
  "0015_rate_limit_counters_unlogged": rateLimitCountersUnlogged,
  "0016_member_counts": memberCounts,
  "0017_job_trace_context": jobTraceContext,
  "0018_item_positions": itemPositions,
  "0019_oauth_settings": oauthSettings,
  "0020_events_audit": eventsAudit,
  "0021_idempotency_keys": idempotencyKeys,
  "0022_webhooks": webhooks,
  "0023_job_claims": jobClaims,
  "0024_scim_resources": scimResources,
  "0025_organization_domains": organizationDomains,
  "0026_directory_tokens": directoryTokens
}
