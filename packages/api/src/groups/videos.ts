import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Forbidden } from "@tks/domain/errors"
import { NewHostedVideo, VideoAddition } from "@tks/domain/intake"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** Adding hosted videos (content:write and video.create, checked on every call). No review lane. */
export class VideosGroup extends HttpApiGroup.make("videos")
  .add(
    HttpApiEndpoint.post("addHosted", "/videos/videohost")
      .setPayload(NewHostedVideo)
      .addSuccess(VideoAddition)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Add a hosted video")
      .annotate(
        OpenApi.Description,
        "Adds a video of the video-hosting site by its watch, share or shorts link. The video must exist and allow embedding (else 400 VIDEO_UNAVAILABLE). Answers 200 with {contentId, alreadyInLibrary, title, url}: title is null until processing.\n\nNo review lane: an organization admin adds with any visibility; a team admin only for teams they administer (admins only is 400 \"Please specify at least one team\"; everyone or another team is 403); anyone else gets 403.\n\nWhen the organization has the video already, nothing is created and its visibility is unchanged: alreadyInLibrary is true, and contentId, title and url are null if the caller cannot see it."
      )
      .pipe(requires(policies.intake.video))
  )
  .middleware(Authentication) {}
