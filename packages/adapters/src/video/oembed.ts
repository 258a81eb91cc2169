import { FetchHttpClient, HttpClient, type HttpClientResponse } from "@effect/platform"
import { Config, type ConfigError, Duration, Effect, Layer, Schema } from "effect"
import { httpUrl } from "../config.js"
import { type HostedVideo, VideoCatalog, type VideoDetails, VideoUnavailable } from "./port.js"

/**
 * The video-hosting site's oEmbed endpoint (`GET {base}/oembed?url=<watch
 * link>&format=json`) answers whether a video exists and may be embedded:
 * 200 with its title, 401/403 when embedding is off, 400/404 when it is absent
 * or private. The base address is configurable so tests (and a proxy) can
 * stand in for the site.
 */
interface OEmbedSettings {
  readonly baseUrl: URL
  readonly timeout: Duration.Duration
}

export const videoUnavailableReasons = {
  notEmbeddable: "This video does not allow embedding",
  absent: "This video does not exist or is private",
  unanswered: "The video-hosting site could not confirm this video; try again later"
} as const

const OEmbedConfig: Config.Config<OEmbedSettings> = Config.all({
  baseUrl: httpUrl("VIDEO_OEMBED_BASE_URL", "https://www.youtube.com"),
  timeout: Config.integer("VIDEO_OEMBED_TIMEOUT_MS").pipe(
    Config.validate({ message: "VIDEO_OEMBED_TIMEOUT_MS must be a positive integer", validation: (ms) => ms > 0 }),
    Config.withDefault(3_000),
    Config.map(Duration.millis)
  )
})

/** The fields we use; the site sends more (html, sizes, provider) and they are ignored. */
const OEmbedAnswer = Schema.Struct({
  title: Schema.Trim.pipe(Schema.minLength(1)),
  author_name: Schema.optional(Schema.NullOr(Schema.String)),
  thumbnail_url: Schema.optional(Schema.NullOr(Schema.String))
})

const orNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === "" ? null : value

/** The endpoint's address; a base with a path (a proxy's prefix) keeps it. */
const endpointOf = (base: URL): string => `${base.href.replace(/\/+$/, "")}/oembed`

/** Something went wrong on the way (not the site's answer about the video): logged for operators, a plain reason for the caller. */
const unanswered = (video: HostedVideo, cause: string) =>
  Effect.logWarning("oEmbed lookup failed").pipe(
    Effect.annotateLogs({ videoId: video.videoId, cause }),
    Effect.zipRight(Effect.fail(new VideoUnavailable({ reason: videoUnavailableReasons.unanswered })))
  )

const detailsOf = (video: HostedVideo, response: HttpClientResponse.HttpClientResponse) =>
  response.json.pipe(
    Effect.flatMap(Schema.decodeUnknown(OEmbedAnswer)),
    Effect.map((answer): VideoDetails => ({
      title: answer.title,
      authorName: orNull(answer.author_name),
      thumbnailUrl: orNull(answer.thumbnail_url)
    })),
    Effect.catchAll((error) => unanswered(video, `unreadable answer: ${error.message}`))
  )

const makeVideoCatalog = (settings: OEmbedSettings) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const endpoint = endpointOf(settings.baseUrl)

    const lookup = Effect.fn("VideoCatalog.lookup")(function*(video: HostedVideo) {
      yield* Effect.annotateCurrentSpan("video.id", video.videoId)
      return yield* client.get(endpoint, { urlParams: { url: video.watchUrl, format: "json" } }).pipe(
        Effect.catchAll((error) => unanswered(video, `request failed: ${error.message}`)),
        Effect.flatMap((response) => {
          switch (response.status) {
            case 200:
              return detailsOf(video, response)
            case 401:
            case 403:
              return Effect.fail(new VideoUnavailable({ reason: videoUnavailableReasons.notEmbeddable }))
            case 400:
            case 404:
              return Effect.fail(new VideoUnavailable({ reason: videoUnavailableReasons.absent }))
            default:
              return unanswered(video, `HTTP ${response.status}`)
          }
        }),
        // One budget for connecting, the answer and its body; interruption aborts the fetch.
        Effect.timeout(settings.timeout),
        Effect.catchTag("TimeoutException", () =>
          unanswered(video, `no answer within ${Duration.format(settings.timeout)}`))
      )
    })

    return VideoCatalog.of({ lookup })
  })

/** The catalog with explicit settings, over the platform's fetch client. */
export const videoCatalogLayer = (settings: OEmbedSettings): Layer.Layer<VideoCatalog> =>
  Layer.effect(VideoCatalog, makeVideoCatalog(settings)).pipe(Layer.provide(FetchHttpClient.layer))

/** The catalog configured by VIDEO_OEMBED_BASE_URL and VIDEO_OEMBED_TIMEOUT_MS. */
export const VideoCatalogLive: Layer.Layer<VideoCatalog, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(OEmbedConfig, videoCatalogLayer)
)
