import { Effect, Layer } from "effect"
import type { Delivered } from "@tks/adapters/delivery"
import { MailSender, type OutgoingEmail } from "@tks/adapters/mail/port"
import { type OutgoingText, SmsSender } from "@tks/adapters/sms/port"
import { type FetchedPage, PageFetcher, UnfetchableAddress } from "@tks/adapters/page-fetch/port"
import { LocalQuestionGenerator } from "@tks/adapters/questions/local"
import { LocalSpeechLive } from "@tks/adapters/speech/live"
import { type VideoDetails, VideoCatalog, VideoUnavailable } from "@tks/adapters/video/port"
import { layerWebhookSender } from "@tks/adapters/webhooks/sender"

/**
 * Test doubles of the outside-world ports for the test server: nothing
 * leaves the process. They answer from fixed tables, so a test can say
 * which address serves what and which video exists; anything else is
 * refused the way the real adapters refuse it.
 *
 * TODO(lead): swap for PageFetcherLive / VideoCatalogLive against loopback
 * fakes once the adapters are merged; the tests only rely on the tables below.
 */

/** Public pages the fake web serves, by the exact address asked for. */
export const testPages: ReadonlyMap<string, FetchedPage> = new Map<string, FetchedPage>([
  [
    "https://handbook.example.test/onboarding",
    {
      finalUrl: "https://handbook.example.test/onboarding/",
      siteName: "Example Handbook",
      title: "Onboarding",
      markdown: "# Onboarding\n\nEvery new hire meets their buddy on day one.\n",
      kind: "html"
    }
  ],
  [
    "https://files.example.test/policy.pdf",
    {
      finalUrl: "https://files.example.test/policy.pdf",
      siteName: "files.example.test",
      title: null,
      markdown: "## Page 1\n\nTravel is booked through the portal.\n",
      kind: "pdf"
    }
  ]
])

/** Every address the fake fetcher was asked for, in order (to show a call fetched nothing). */
export const fetchedAddresses: Array<string> = []

/** Videos the fake hosting site knows, by id; `notEmbeddable` exists but may not be embedded. */
export const testVideos = {
  onboarding: "onboardVid1",
  safety: "safetyVid01",
  race: "raceVideo01",
  notEmbeddable: "noEmbed0001",
  missing: "missing0001"
} as const

const videoDetails: ReadonlyMap<string, VideoDetails> = new Map<string, VideoDetails>([
  [testVideos.onboarding, { title: "Welcome aboard", authorName: "Acme", thumbnailUrl: null }],
  [testVideos.safety, { title: "Forklift safety", authorName: "Acme", thumbnailUrl: null }],
  [testVideos.race, { title: "Added twice at once", authorName: null, thumbnailUrl: null }]
])

export const videoReasons = {
  notEmbeddable: "The video's owner does not allow it to be embedded",
  missing: "The video does not exist or is private"
} as const

/** Every video id the fake catalog was asked about, in order. */
export const lookedUpVideos: Array<string> = []

export const TestPageFetcherLive = Layer.succeed(PageFetcher, {
  fetch: (url) =>
    Effect.suspend(() => {
      fetchedAddresses.push(url.href)
      const page = testPages.get(url.href)
      return page === undefined ? Effect.fail(new UnfetchableAddress({ reason: `not served by the test web: ${url.href}` })) : Effect.succeed(page)
    })
})

export const TestVideoCatalogLive = Layer.succeed(VideoCatalog, {
  lookup: (video) =>
    Effect.suspend(() => {
      lookedUpVideos.push(video.videoId)
      if (video.videoId === testVideos.notEmbeddable) return Effect.fail(new VideoUnavailable({ reason: videoReasons.notEmbeddable }))
      const details = videoDetails.get(video.videoId)
      return details === undefined ? Effect.fail(new VideoUnavailable({ reason: videoReasons.missing })) : Effect.succeed(details)
    })
})

/**
 * The ports the core services use: pages and videos answered by the doubles
 * above; speech and quiz questions by the real local engines (offline and
 * deterministic, so the contract tests decode what a caller gets).
 */
export const TestAdaptersLive = Layer.mergeAll(TestPageFetcherLive, TestVideoCatalogLive, LocalSpeechLive, LocalQuestionGenerator)

/** Every email and text the test server's workers delivered, in order (to show who was told what). */
export const sentEmails: Array<OutgoingEmail> = []
export const sentTexts: Array<OutgoingText> = []

/**
 * Email and texts for the test server: kept in the arrays above, never sent.
 * (The SMTP and Twilio adapters are tested against an in-process SMTP server
 * and a loopback Twilio fake: packages/adapters/test, notifications-process.test.ts.)
 */
const keptIn = <A>(sent: Array<A>) => (message: A) =>
  Effect.sync((): Delivered => {
    sent.push(message)
    return { providerMessageId: null }
  })

export const TestMessagingLive = Layer.mergeAll(
  Layer.succeed(MailSender, { provider: "test", send: keptIn(sentEmails) }),
  Layer.succeed(SmsSender, { provider: "test", send: keptIn(sentTexts) })
)

/**
 * Webhooks for the test server: the real sender, with private targets
 * allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS), so a receiver on 127.0.0.1 gets
 * real signed POSTs; names resolve only `localhost`, so nothing a test
 * registers is ever looked up in real DNS or dialed off this machine.
 */
export const TestWebhookSenderLive = layerWebhookSender({
  allowPrivateTargets: true,
  resolver: async (hostname) => {
    if (hostname.toLowerCase() === "localhost") return [{ address: "127.0.0.1", family: 4 }]
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" })
  }
})
