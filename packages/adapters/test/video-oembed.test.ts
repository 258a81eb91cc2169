import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Exit, Layer } from "effect"
import { parseHostedVideo } from "@tks/domain/hosted-video"
import { VideoCatalogLive, videoCatalogLayer, videoUnavailableReasons } from "@tks/adapters/video/oembed"
import { type HostedVideo, VideoCatalog, VideoUnavailable } from "@tks/adapters/video/port"
import { json, type RecordedRequest, type ScriptedReply, scriptedServer } from "./support/scripted-server.js"

const videoOf = (link: string): HostedVideo =>
  Either.getOrThrowWith(parseHostedVideo(link), (reason) => new Error(reason))

const shared = videoOf("https://youtu.be/dQw4w9WgXcQ?t=42")

/** Looks `video` up against a fake oEmbed endpoint scripted by `script`; returns the result and what the fake saw. */
const lookupAgainst = (
  script: (request: RecordedRequest) => ScriptedReply,
  video: HostedVideo = shared,
  timeoutMs = 2_000
) =>
  Effect.gen(function*() {
    const server = yield* scriptedServer(script)
    const exit = yield* VideoCatalog.pipe(
      Effect.flatMap((catalog) => catalog.lookup(video)),
      Effect.provide(videoCatalogLayer({ baseUrl: new URL(server.baseUrl), timeout: Duration.millis(timeoutMs) })),
      Effect.exit
    )
    return { exit, requests: server.requests }
  })

const reasonOf = <A>(exit: Exit.Exit<A, VideoUnavailable>) =>
  Exit.match(exit, {
    onSuccess: () => "succeeded",
    onFailure: (cause) => {
      const failure = cause._tag === "Fail" ? cause.error : null
      return failure instanceof VideoUnavailable ? failure.reason : `unexpected: ${String(cause)}`
    }
  })

const existing = json(200, {
  title: "Never Gonna Give You Up",
  author_name: "Rick Astley",
  thumbnail_url: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
  html: "<iframe></iframe>",
  type: "video",
  version: "1.0"
})

// scopedLive: the timeout runs on the real clock (the TestClock of it.scoped never advances).
describe("the oEmbed video catalog (POST /v1/videos/videohost: the video must exist and allow embedding)", () => {
  it.scopedLive("a video that exists and may be embedded gives its title, author and thumbnail", () =>
    Effect.gen(function*() {
      const { exit } = yield* lookupAgainst(() => existing)
      expect(exit).toEqual(Exit.succeed({
        title: "Never Gonna Give You Up",
        authorName: "Rick Astley",
        thumbnailUrl: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"
      }))
    }))

  it.scopedLive("the request asks GET /oembed for the canonical watch link in JSON, whatever link the caller gave", () =>
    Effect.gen(function*() {
      const { requests } = yield* lookupAgainst(() => existing)
      expect(requests).toHaveLength(1)
      const request = requests[0]!
      expect(request.method).toBe("GET")
      const url = new URL(request.url, "http://fake")
      expect(url.pathname).toBe("/oembed")
      expect(url.searchParams.get("url")).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ")
      expect(url.searchParams.get("format")).toBe("json")
    }))

  it.scopedLive("a missing author and thumbnail are null, not empty strings", () =>
    Effect.gen(function*() {
      const { exit } = yield* lookupAgainst(() => json(200, { title: " Talk ", author_name: "", thumbnail_url: null }))
      expect(exit).toEqual(Exit.succeed({ title: "Talk", authorName: null, thumbnailUrl: null }))
    }))

  it.scopedLive("401 and 403 (embedding turned off) are unavailable: the video does not allow embedding", () =>
    Effect.gen(function*() {
      for (const status of [401, 403]) {
        const { exit } = yield* lookupAgainst(() => ({ status, body: "Unauthorized" }))
        expect(reasonOf(exit), String(status)).toBe(videoUnavailableReasons.notEmbeddable)
      }
    }))

  it.scopedLive("404 and 400 (absent or private) are unavailable: the video does not exist or is private", () =>
    Effect.gen(function*() {
      for (const status of [404, 400]) {
        const { exit } = yield* lookupAgainst(() => ({ status, body: "Not Found" }))
        expect(reasonOf(exit), String(status)).toBe(videoUnavailableReasons.absent)
      }
    }))

  it.scopedLive("a server error or an unexpected status is unavailable with the could-not-confirm reason", () =>
    Effect.gen(function*() {
      for (const status of [500, 503, 302, 204]) {
        const { exit } = yield* lookupAgainst(() => ({ status, body: "" }))
        expect(reasonOf(exit), String(status)).toBe(videoUnavailableReasons.unanswered)
      }
    }))

  it.scopedLive("malformed JSON, or JSON without a title, is unavailable rather than a defect", () =>
    Effect.gen(function*() {
      const malformed = yield* lookupAgainst(() => ({ status: 200, body: "{\"title\": ", headers: { "content-type": "application/json" } }))
      expect(reasonOf(malformed.exit)).toBe(videoUnavailableReasons.unanswered)
      const untitled = yield* lookupAgainst(() => json(200, { author_name: "Someone" }))
      expect(reasonOf(untitled.exit)).toBe(videoUnavailableReasons.unanswered)
      const blank = yield* lookupAgainst(() => json(200, { title: "   " }))
      expect(reasonOf(blank.exit)).toBe(videoUnavailableReasons.unanswered)
    }))

  it.scopedLive("a site that does not answer within the timeout is unavailable (the lookup does not hang)", () =>
    Effect.gen(function*() {
      const { exit, requests } = yield* lookupAgainst(() => ({ ...existing, delayMs: 5_000 }), shared, 150)
      expect(reasonOf(exit)).toBe(videoUnavailableReasons.unanswered)
      expect(requests).toHaveLength(1)
    }))

  it.scopedLive("a site that cannot be reached (connection refused) is unavailable", () =>
    Effect.gen(function*() {
      // A port that was just free: listen, note it, close, then dial it.
      const closedBase = yield* Effect.scoped(scriptedServer(() => existing).pipe(Effect.map((server) => server.baseUrl)))
      const exit = yield* VideoCatalog.pipe(
        Effect.flatMap((catalog) => catalog.lookup(shared)),
        Effect.provide(videoCatalogLayer({ baseUrl: new URL(closedBase), timeout: Duration.seconds(2) })),
        Effect.exit
      )
      expect(reasonOf(exit)).toBe(videoUnavailableReasons.unanswered)
    }))

  it.scopedLive("VideoCatalogLive reads VIDEO_OEMBED_BASE_URL (a base with a path keeps its prefix)", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer(() => existing)
      const config = ConfigProvider.fromMap(new Map([
        ["VIDEO_OEMBED_BASE_URL", `${server.baseUrl}/proxy/`],
        ["VIDEO_OEMBED_TIMEOUT_MS", "2000"]
      ]))
      const details = yield* VideoCatalog.pipe(
        Effect.flatMap((catalog) => catalog.lookup(shared)),
        Effect.provide(VideoCatalogLive.pipe(Layer.provide(Layer.setConfigProvider(config))))
      )
      expect(details.title).toBe("Never Gonna Give You Up")
      expect(new URL(server.requests[0]!.url, "http://fake").pathname).toBe("/proxy/oembed")
    }))

  it.effect("VideoCatalogLive refuses a base address that is not http or https", () =>
    Effect.gen(function*() {
      const config = ConfigProvider.fromMap(new Map([["VIDEO_OEMBED_BASE_URL", "ftp://example.test"]]))
      const exit = yield* VideoCatalog.pipe(
        Effect.provide(VideoCatalogLive.pipe(Layer.provide(Layer.setConfigProvider(config)))),
        Effect.exit
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(exit)).toContain("VIDEO_OEMBED_BASE_URL must be an http or https address")
    }))
})
