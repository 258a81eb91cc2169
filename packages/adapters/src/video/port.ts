import { Context, type Effect, Schema } from "effect"
import type { HostedVideo } from "@tks/domain/hosted-video"

/** A hosted video named by a watch, share or shorts link: the domain owns it (parseHostedVideo). */
export type { HostedVideo }

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
