import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { VideoCatalog } from "@tks/adapters/video/port"
import { actorTeamIds } from "@tks/domain/actor"
import { BadRequest, BadRequestCode, Forbidden, InputIssue } from "@tks/domain/errors"
import {
  audienceOf,
  intakeErrorCodes,
  type NewHostedVideo,
  pleaseSpecifyATeam,
  publisherOf,
  type VideoAddition,
  videoAudienceVerdict
} from "@tks/domain/intake"
import type { Access } from "@tks/domain/policy"
import { canRead } from "@tks/domain/visibility"
import { Caller } from "@tks/domain/caller"
import { contentAdded, contentRef } from "../content/content-events.js"
import { JobsRepo } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { newId } from "../common/ids.js"
import { Links } from "../common/links.js"
import { requireKnownTeams } from "./audience.js"
import { IntakeRepo, type LibraryVideoRow } from "./repo.js"
import { storable } from "./url.js"
import { parseHostedVideo } from "@tks/domain/hosted-video"
import { traced } from "../common/traced.js"

/**
 * POST /v1/videos/videohost: no review lane. The link, the teams
 * and whether the caller may publish to that audience are checked first;
 * then a video the organization already has answers `alreadyInLibrary`
 * without asking the hosting site; otherwise the site must say the video
 * exists and may be embedded, and one transaction adds it with its
 * processing job and its record (`content.published`). A video already
 * there is no act: nothing is recorded.
 */
export class Videos extends Effect.Service<Videos>()("@tks/core/Videos", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* IntakeRepo
    const jobs = yield* JobsRepo
    const links = yield* Links
    const catalog = yield* VideoCatalog
    const journal = yield* Journal

    /**
     * Nothing is created and the existing visibility stays. The caller learns
     * which record it is only if they can read it through /v1/content
     * (published, and visible to them); otherwise every field is null.
     */
    const alreadyInLibrary = (access: Access, row: LibraryVideoRow): VideoAddition => {
      const reader = { role: access.actor.role, teamIds: actorTeamIds(access.actor) }
      const readable = row.status === "published" && canRead(reader, row.visibility, row.team_ids)
      return readable
        ? { contentId: row.id, alreadyInLibrary: true, title: row.title, url: links.content(row.id) }
        : { contentId: null, alreadyInLibrary: true, title: null, url: null }
    }

    const add = traced("Videos.add")(function*(access: Access, body: NewHostedVideo) {
      const { organizationId: orgId, userId } = access.actor
      const video = parseHostedVideo(body.url)
      if (Either.isLeft(video)) {
        return yield* new BadRequest({ code: BadRequestCode.validation, message: video.left, issues: [new InputIssue({ path: "url", message: video.left })] })
      }
      const { provider, videoId, watchUrl } = video.right
      const audience = audienceOf(body)
      yield* requireKnownTeams(repo, orgId, audience)
      const verdict = videoAudienceVerdict(publisherOf(access), audience)
      if (verdict._tag === "Forbidden") return yield* new Forbidden({ message: verdict.message })
      if (verdict._tag === "NeedsTeam") return yield* new BadRequest({ code: intakeErrorCodes.teamRequired, message: pleaseSpecifyATeam })

      const existing = yield* repo.libraryVideo(orgId, provider, videoId)
      if (existing !== undefined) return alreadyInLibrary(access, existing)

      const details = yield* catalog.lookup(video.right).pipe(
        Effect.mapError((unavailable) => new BadRequest({ code: intakeErrorCodes.videoUnavailable, message: unavailable.reason }))
      )
      const contentId = newId("content")
      // The site's title until processing settles one (title_final false); not answered before then.
      const title = storable(details.title).trim() || watchUrl
      const created = yield* sql.withTransaction(Effect.gen(function*() {
        const inserted = yield* repo.insertVideo({
          orgId,
          id: contentId,
          title,
          titleFinal: false,
          sourceUrl: watchUrl,
          status: "published",
          visibility: audience.visibility,
          createdBy: userId,
          provider,
          videoId
        })
        if (!inserted) return false
        yield* repo.setTeams(orgId, contentId, audience.teamIds)
        yield* jobs.enqueue({ orgId, kind: "content.process", subjectId: contentId })
        yield* journal.record(contentAdded(Caller.person(access), orgId, contentRef({ id: contentId, title, type: "video" }), audience, false))
        return true
      }))
      if (!created) {
        // Another call added the same video since we looked: answer as for any video already there.
        const winner = yield* repo.libraryVideo(orgId, provider, videoId)
        if (winner !== undefined) return alreadyInLibrary(access, winner)
        return yield* Effect.dieMessage("a hosted video conflicted on insert but is not in the library")
      }
      const addition: VideoAddition = { contentId, alreadyInLibrary: false, title: null, url: links.content(contentId) }
      return addition
    })

    return { add } as const
  }),
  dependencies: [IntakeRepo.Default, JobsRepo.Default, Journal.Default, Links.Default]
}) {}
