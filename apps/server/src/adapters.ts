import { Layer } from "effect"
import { KnowledgeExtractorLive } from "@tks/adapters/extraction/live"
import { MailSenderLive } from "@tks/adapters/mail/live"
import { PageFetcherLive } from "@tks/adapters/page-fetch/fetcher"
import { QuestionGeneratorLive } from "@tks/adapters/questions/live"
import { SmsSenderLive } from "@tks/adapters/sms/live"
import { SpeechSynthesizerLive } from "@tks/adapters/speech/live"
import { VideoCatalogLive } from "@tks/adapters/video/oembed"
import { WebhookSenderLive } from "@tks/adapters/webhooks/sender"

/**
 * The outside world as the service reaches it (docs/architecture.md), each from its
 * configuration: pages through the SSRF-guarded fetcher, hosted videos
 * through the site's oEmbed endpoint, knowledge extraction through the LLM
 * when one is configured, else the local extractor, and quiz questions the
 * same way; email and texts through SMTP and Twilio when configured, else
 * into the local mailbox folder; webhooks through the SSRF-guarded sender.
 */
export const AdaptersLive = Layer.mergeAll(
  PageFetcherLive,
  VideoCatalogLive,
  KnowledgeExtractorLive,
  QuestionGeneratorLive,
  SpeechSynthesizerLive,
  MailSenderLive,
  SmsSenderLive,
  WebhookSenderLive
)
