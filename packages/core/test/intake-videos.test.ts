import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { policies } from "@tks/domain/policies"
import { Videos } from "../src/intake/videos.js"
import { contributorsOnce, IntakeTestLayer, intakeCounts, lookedUp, rowsAbout } from "./support/intake.js"

const setup = contributorsOnce()
const link = (id: string) => `https://youtu.be/${id}`

layer(IntakeTestLayer)("adding a hosted video", (it) => {
  it.effect("a new video: published with the asked audience, the watch link as source, the site's title kept but not answered, a job", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const videos = yield* Videos
      const answer = yield* videos.add(org.access("teamAdmin", policies.intake.video), {
        url: "https://www.youtube.com/shorts/dQw4w9WgXcQ",
        visibility: "teams",
        teamIds: [org.teamId("ops")]
      })
      expect(answer).toMatchObject({ alreadyInLibrary: false, title: null })
      expect(answer.url).toMatch(new RegExp(`/v1/content/${answer.contentId}$`))
      const rows = yield* rowsAbout(answer.contentId!)
      expect(rows.content).toMatchObject({
        status: "published",
        visibility: "teams",
        title: "Welcome aboard",
        title_final: false,
        source_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
      })
      expect(rows.teamIds).toEqual([org.teamId("ops")])
      expect(rows.jobs).toEqual([{ kind: "content.process", status: "PENDING" }])
    }))

  it.effect("a video already in the library: nothing created, visibility unchanged; its fields only for a caller who can read it", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const videos = yield* Videos
      const first = yield* videos.add(org.access("admin", policies.intake.video), { url: link("seenByAdmin"), visibility: "admins" })
      const before = yield* intakeCounts(org.organizationId)
      const lookupsBefore = lookedUp.length
      // The owner can read an admins-only video; the team admin cannot.
      const owner = yield* videos.add(org.access("owner", policies.intake.video), { url: `https://www.youtube.com/watch?v=seenByAdmin`, visibility: "everyone" })
      expect(owner).toEqual({ contentId: first.contentId, alreadyInLibrary: true, title: "Admins only", url: first.url })
      const teamAdmin = yield* videos.add(org.access("teamAdmin", policies.intake.video), {
        url: link("seenByAdmin"),
        visibility: "teams",
        teamIds: [org.teamId("night")]
      })
      expect(teamAdmin).toEqual({ contentId: null, alreadyInLibrary: true, title: null, url: null })
      expect(yield* intakeCounts(org.organizationId)).toEqual(before)
      expect((yield* rowsAbout(first.contentId!)).content).toMatchObject({ visibility: "admins" })
      // Already there: the hosting site is not asked again.
      expect(lookedUp.length).toBe(lookupsBefore)
    }))

  it.effect("two adds of one video at once create one record; the other answers alreadyInLibrary", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const videos = yield* Videos
      const add = videos.add(org.access("admin", policies.intake.video), { url: link("raceraceRAC"), visibility: "everyone" })
      const answers = yield* Effect.all([add, add, add], { concurrency: 3 })
      expect(answers.filter((answer) => !answer.alreadyInLibrary)).toHaveLength(1)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT id FROM content WHERE org_id = ${org.organizationId} AND video_id = 'raceraceRAC'`
      expect(rows).toHaveLength(1)
      for (const answer of answers) expect(answer.contentId).toBe(rows[0]!.id)
    }))

  it.effect("who may add for whom: team admins only their teams; 'Please specify at least one team'; everyone else 403", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const videos = yield* Videos
      const before = yield* intakeCounts(org.organizationId)
      const teamAdmin = org.access("teamAdmin", policies.intake.video)
      const url = link("abcdefghijk")
      expect(yield* Effect.flip(videos.add(teamAdmin, { url, visibility: "admins" }))).toMatchObject({
        _tag: "BadRequest",
        code: "TEAM_REQUIRED",
        message: "Please specify at least one team"
      })
      expect((yield* Effect.flip(videos.add(teamAdmin, { url, visibility: "everyone" })))._tag).toBe("Forbidden")
      expect((yield* Effect.flip(videos.add(teamAdmin, { url, visibility: "teams", teamIds: [org.teamId("alpha")] })))._tag).toBe("Forbidden")
      for (const visibility of ["everyone", "admins"] as const) {
        expect((yield* Effect.flip(videos.add(org.access("viewer", policies.intake.video), { url, visibility })))._tag).toBe("Forbidden")
      }
      expect(yield* intakeCounts(org.organizationId)).toEqual(before)
    }))

  it.effect("a video the site says is absent or not embeddable is 400 with the site's reason; a bad link is 400 before any lookup", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const videos = yield* Videos
      const admin = org.access("admin", policies.intake.video)
      expect(yield* Effect.flip(videos.add(admin, { url: link("zzzzzzzzzzz"), visibility: "everyone" }))).toMatchObject({
        _tag: "BadRequest",
        code: "VIDEO_UNAVAILABLE",
        message: "Embedding is turned off for this video"
      })
      const lookupsBefore = lookedUp.length
      for (const url of ["https://vimeo.com/123", "https://youtube.com.evil.test/watch?v=dQw4w9WgXcQ", "https://youtu.be/short", "https://www.youtube.com/playlist?list=x"]) {
        expect(yield* Effect.flip(videos.add(admin, { url, visibility: "everyone" })), url).toMatchObject({ _tag: "BadRequest", code: "VALIDATION_ERROR" })
      }
      expect(lookedUp.length).toBe(lookupsBefore)
    }))

  it.effect("a team of another organization is 400 Unknown teamId", () =>
    Effect.gen(function*() {
      const { contributors: org, elsewhere } = yield* setup
      const videos = yield* Videos
      const error = yield* Effect.flip(
        videos.add(org.access("admin", policies.intake.video), { url: link("abcdefghijk"), visibility: "teams", teamIds: [elsewhere.teamId("foreign")] })
      )
      expect(error).toMatchObject({ _tag: "BadRequest", code: "UNKNOWN_TEAM", message: "Unknown teamId" })
    }))
})
