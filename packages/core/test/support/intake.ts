import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { type FetchedPage, PageFetcher, UnfetchableAddress } from "@tks/adapters/page-fetch/port"
import { type VideoDetails, VideoCatalog, VideoUnavailable } from "@tks/adapters/video/port"
import { TestDatabaseLive } from "@tks/db/test-database"
import { contributors, elsewhere } from "@tks/core/testing/contributors"
import { ContentReview } from "../../src/content-review/service.js"
import { Documents } from "../../src/intake/documents.js"
import { Videos } from "../../src/intake/videos.js"
import { FixtureImporter } from "../../src/org-import/importer.js"
import { importedOnce } from "./access.js"

/**
 * Core tests of adding content and the review lane: the services over a
 * real test database, with the outside world (page fetch, the video site's
 * catalog) answered by in-memory doubles that record what they were asked.
 */
export const pages = new Map<string, FetchedPage>([
  [
    "https://wiki.example.test/handbook",
    {
      finalUrl: "https://wiki.example.test/handbook/",
      siteName: "Example\nWiki\u202E",
      title: "Handbook",
      markdown: "# Handbook\n\nWe ship on Tuesdays.\u0000\n",
      kind: "html"
    }
  ]
])
export const fetched: Array<string> = []

export const videos = new Map<string, VideoDetails>([
  ["dQw4w9WgXcQ", { title: "Welcome aboard", authorName: null, thumbnailUrl: null }],
  ["abcdefghijk", { title: "Forklift safety", authorName: null, thumbnailUrl: null }],
  ["raceraceRAC", { title: "Raced", authorName: null, thumbnailUrl: null }],
  ["seenByAdmin", { title: "Admins only", authorName: null, thumbnailUrl: null }]
])
export const lookedUp: Array<string> = []

const Doubles = Layer.mergeAll(
  Layer.succeed(PageFetcher, {
    fetch: (url) =>
      Effect.suspend(() => {
        fetched.push(url.href)
        const page = pages.get(url.href)
        return page === undefined ? Effect.fail(new UnfetchableAddress({ reason: "not in the test web" })) : Effect.succeed(page)
      })
  }),
  Layer.succeed(VideoCatalog, {
    lookup: (video) =>
      Effect.suspend(() => {
        lookedUp.push(video.videoId)
        const details = videos.get(video.videoId)
        return details === undefined ? Effect.fail(new VideoUnavailable({ reason: "Embedding is turned off for this video" })) : Effect.succeed(details)
      })
  })
)

export const IntakeTestLayer = Layer.mergeAll(FixtureImporter.Default, Documents.Default, Videos.Default, ContentReview.Default).pipe(
  Layer.provide(Doubles),
  Layer.provideMerge(TestDatabaseLive)
)

/** The contributors and elsewhere organizations (@tks/core/testing/contributors), imported once per file. */
export const contributorsOnce = () => importedOnce({ contributors, elsewhere })

/** Rows of a table about one content record (content, content_teams, jobs, content_review_requests). */
export const rowsAbout = (contentId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [content] = yield* sql<{ status: string; visibility: string; title: string; title_final: boolean; body: string | null; source_url: string | null; created_by: string }>`
      SELECT status, visibility, title, title_final, body, source_url, created_by FROM content WHERE id = ${contentId}`
    const teams = yield* sql<{ team_id: string }>`SELECT team_id FROM content_teams WHERE content_id = ${contentId} ORDER BY team_id`
    const jobs = yield* sql<{ kind: string; status: string }>`SELECT kind, status FROM jobs WHERE subject_id = ${contentId}`
    const reviews = yield* sql<{ id: string; status: string; resource_type: string; kind: string; title: string; submitter_id: string }>`
      SELECT id, status, resource_type, kind, title, submitter_id FROM content_review_requests WHERE content_id = ${contentId}`
    return { content, teamIds: teams.map((row) => row.team_id), jobs, reviews }
  })

/** How many rows the intake tables hold in the organization (to show that nothing was created). */
export const intakeCounts = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ content: number; reviews: number; jobs: number }>`
      SELECT (SELECT count(*)::int FROM content WHERE org_id = ${orgId}) AS content,
        (SELECT count(*)::int FROM content_review_requests WHERE org_id = ${orgId}) AS reviews,
        (SELECT count(*)::int FROM jobs WHERE org_id = ${orgId}) AS jobs`
    return row!
  })

/**
 * The review-submission limit counts in windows aligned to the minute: a
 * test that fills one starts early enough in a minute that its burst cannot
 * straddle two (a real timer: the TestClock does not move by itself).
 */
export const clearOfMinuteEnd = Effect.promise(() => {
  const left = 60_000 - (Date.now() % 60_000)
  return new Promise<void>((resolve) => setTimeout(resolve, left < 8_000 ? left + 200 : 0))
})
