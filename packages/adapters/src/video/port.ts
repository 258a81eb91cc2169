import { Context, type Effect, Schema } from "effect"

/** A hosted video named by a watch, share or shorts link (see parse.ts). */
export interface HostedVideo {
  readonly provider: "videohost"
  /** The site's own video id (11 characters). */
  readonly videoId: string
  /** The canonical watch link. */
  readonly watchUrl: string
}

/** What the hosting site's oEmbed endpoint says about a video that exists and may be embedded. */
export interface VideoDetails {
  readonly title: string
  readonly authorName: string | null
  readonly thumbnailUrl: string | null
}

/** Absent, private, or not embeddable: the caller's answer is 400. `reason` is said to the caller. */
export class VideoUnavailable extends Schema.TaggedError<VideoUnavailable>()("VideoUnavailable", {
  reason: Schema.String
}) {}

export class VideoCatalog extends Context.Tag("@tks/adapters/VideoCatalog")<VideoCatalog, {
  readonly lookup: (video: HostedVideo) => Effect.Effect<VideoDetails, VideoUnavailable>
}>() {}
