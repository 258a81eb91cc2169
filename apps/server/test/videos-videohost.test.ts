import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { lookedUpVideos, testVideos, videoReasons } from "./support/adapters.js"
import { contributorsOnce, intakeCounts, post, storedContent } from "./support/contributors.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * POST /v1/videos/videohost. The test server's video catalog
 * knows a few videos (support/adapters.ts); the link parser and the oEmbed
 * adapter have their own tests.
 */
const setup = contributorsOnce
const PATH = "/v1/videos/videohost"
const watch = (id: string) => `https://www.youtube.com/watch?v=${id}`

layer(TestServerLive, { excludeTestServices: true })("POST /v1/videos/videohost", (it) => {
  it.effect("a new video: 200 {contentId, alreadyInLibrary false, title null, url}; published with the asked audience and queued", () =>
    Effect.gen(function*() {
      const { teamId, token } = yield* setup
      const response = yield* post(PATH, token("admin"), { url: `https://youtu.be/${testVideos.onboarding}`, visibility: "teams", teamIds: [teamId("ops")] })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        contentId: expect.stringMatching(/^cnt_/),
        alreadyInLibrary: false,
        title: null,
        url: `http://localhost:3000/v1/content/${response.json.contentId}`
      })
      expect(yield* storedContent(response.json.contentId)).toMatchObject({
        type: "video",
        status: "published",
        visibility: "teams",
        teamIds: [teamId("ops")],
        title: "Welcome aboard",
        title_final: false,
        source_url: watch(testVideos.onboarding),
        jobs: 1
      })
    }))

  it.effect("already in the library: nothing created, visibility unchanged; a caller who can see it gets its id, title and link", () =>
    Effect.gen(function*() {
      const { result, teamId, token } = yield* setup
      const before = yield* intakeCounts(result.organizationId)
      const lookupsBefore = lookedUpVideos.length
      // The onboarding video is shared with Ops (previous test); the team admin of Ops adds it again for Night.
      const again = yield* post(PATH, token("teamAdmin"), { url: `https://www.youtube.com/shorts/${testVideos.onboarding}`, visibility: "teams", teamIds: [teamId("night")] })
      expect(again.status).toBe(200)
      expect(again.json).toEqual({
        contentId: expect.stringMatching(/^cnt_/),
        alreadyInLibrary: true,
        title: "Welcome aboard",
        url: `http://localhost:3000/v1/content/${again.json.contentId}`
      })
      const owner = yield* post(PATH, token("owner"), { url: watch(testVideos.onboarding), visibility: "everyone" })
      expect(owner.json).toEqual(again.json)
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      expect(yield* storedContent(again.json.contentId)).toMatchObject({ visibility: "teams", teamIds: [teamId("ops")] })
      expect(lookedUpVideos.length).toBe(lookupsBefore)
    }))

  it.effect("already in the library but not visible to the caller: contentId, title and url are all null", () =>
    Effect.gen(function*() {
      const { result, teamId, token } = yield* setup
      const hidden = yield* post(PATH, token("admin"), { url: watch(testVideos.safety), visibility: "admins" })
      expect(hidden.json.alreadyInLibrary).toBe(false)
      const before = yield* intakeCounts(result.organizationId)
      const response = yield* post(PATH, token("teamAdmin"), { url: watch(testVideos.safety), visibility: "teams", teamIds: [teamId("ops")] })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({ contentId: null, alreadyInLibrary: true, title: null, url: null })
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      expect(yield* storedContent(hidden.json.contentId)).toMatchObject({ visibility: "admins", teamIds: [] })
    }))

  it.effect("a team admin: admins only is 400 'Please specify at least one team'; everyone or a team they do not administer is 403", () =>
    Effect.gen(function*() {
      const { result, teamId, token } = yield* setup
      const before = yield* intakeCounts(result.organizationId)
      const url = watch(testVideos.race)
      const admins = yield* post(PATH, token("teamAdmin"), { url, visibility: "admins" })
      expectError(admins, 400, "TEAM_REQUIRED")
      expect(admins.json.message).toBe("Please specify at least one team")
      expectError(yield* post(PATH, token("teamAdmin"), { url, visibility: "everyone" }), 403, "FORBIDDEN", "everyone")
      expectError(yield* post(PATH, token("teamAdmin"), { url, visibility: "teams", teamIds: [teamId("alpha")] }), 403, "FORBIDDEN", "alpha")
      expectError(yield* post(PATH, token("teamAdmin"), { url, visibility: "teams", teamIds: [teamId("ops"), teamId("alpha")] }), 403, "FORBIDDEN", "ops and alpha")
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
    }))

  it.effect("a viewer who administers no team may not add videos (403), whatever the audience; an external account neither", () =>
    Effect.gen(function*() {
      const { teamId, token } = yield* setup
      const url = watch(testVideos.race)
      for (const audience of [{ visibility: "everyone" }, { visibility: "admins" }, { visibility: "teams", teamIds: [teamId("ops")] }]) {
        expectError(yield* post(PATH, token("viewer"), { url, ...audience }), 403, "FORBIDDEN", `viewer ${audience.visibility}`)
      }
      expectError(yield* post(PATH, token("external"), { url, visibility: "everyone" }), 403, "FORBIDDEN", "external")
    }))

  it.effect("organization admins add for any audience", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const response = yield* post(PATH, token("billingAdmin"), { url: watch(testVideos.race), visibility: "everyone" })
      expect(response.json).toMatchObject({ alreadyInLibrary: false, title: null })
    }))

  it.effect("a video that is absent or may not be embedded is 400 with the reason; nothing is created", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const before = yield* intakeCounts(result.organizationId)
      const notEmbeddable = yield* post(PATH, token("admin"), { url: watch(testVideos.notEmbeddable), visibility: "everyone" })
      expectError(notEmbeddable, 400, "VIDEO_UNAVAILABLE")
      expect(notEmbeddable.json.message).toBe(videoReasons.notEmbeddable)
      const missing = yield* post(PATH, token("admin"), { url: watch(testVideos.missing), visibility: "everyone" })
      expect(missing.json).toMatchObject({ code: "VIDEO_UNAVAILABLE", message: videoReasons.missing })
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
    }))

  it.effect("a link that is not a watch, share or shorts link of the site is 400 before the site is asked", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const lookupsBefore = lookedUpVideos.length
      for (
        const url of [
          "https://vimeo.com/76979871",
          "https://youtube.com.evil.test/watch?v=onboardVid1",
          "https://www.youtube.com/playlist?list=PL1",
          "https://www.youtube.com/watch?v=tooShort",
          "not a link"
        ]
      ) {
        const response = yield* post(PATH, token("admin"), { url, visibility: "everyone" })
        expectError(response, 400, "VALIDATION_ERROR", url)
        expect(response.json.issues, url).toEqual([{ path: "url", message: expect.any(String) }])
      }
      expect(lookedUpVideos.length).toBe(lookupsBefore)
    }))

  it.effect("teamIds follow the rules of adding content, 'Unknown teamId' included", () =>
    Effect.gen(function*() {
      const { elsewhere, teamId, token } = yield* setup
      const url = watch(testVideos.race)
      expectError(yield* post(PATH, token("admin"), { url, visibility: "teams" }), 400, "VALIDATION_ERROR")
      expectError(yield* post(PATH, token("admin"), { url, visibility: "everyone", teamIds: [teamId("ops")] }), 400, "VALIDATION_ERROR")
      const unknown = yield* post(PATH, token("teamAdmin"), { url, visibility: "teams", teamIds: [elsewhere.ids.teams.foreign] })
      expect(unknown.json).toMatchObject({ code: "UNKNOWN_TEAM", message: "Unknown teamId" })
    }))

  it.effect("a token without content:write is 403; bad tokens are 401", () =>
    Effect.gen(function*() {
      const { badTokens, token } = yield* setup
      const body = { url: watch(testVideos.race), visibility: "everyone" }
      expectError(yield* post(PATH, token("unscoped"), body), 403, "FORBIDDEN")
      for (const [kind, bad] of Object.entries(badTokens)) expectError(yield* post(PATH, bad, body), 401, "UNAUTHORIZED", kind)
    }))
})
