import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { contributorsOnce, intakeCounts, post, storedContent } from "./support/contributors.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * POST /v1/documents over the contributors organization
 * (@tks/core/testing/contributors): every field rule, `Unknown teamId`, the
 * outcome table for each kind of caller, and the caller matrix. Callers who
 * go to review are limited to 3 a minute: each test sends at most that many
 * per person (the limit itself: documents-review-limit.test.ts).
 */
const setup = contributorsOnce
const PATH = "/v1/documents"
const valid = { title: "Travel policy", content: "# Travel\n\nBook through the portal.", visibility: "everyone" }

/** 400 VALIDATION_ERROR naming `path`, and nothing created. */
const expectRefused = (body: unknown, path: string, label: string) =>
  Effect.gen(function*() {
    const { result, token } = yield* setup
    const before = yield* intakeCounts(result.organizationId)
    const response = yield* post(PATH, token("admin"), body)
    expectError(response, 400, "VALIDATION_ERROR", label)
    expect(response.json.issues.map((issue: { path: string }) => issue.path), label).toContain(path)
    expect(yield* intakeCounts(result.organizationId), label).toEqual(before)
  })

layer(TestServerLive, { excludeTestServices: true })("POST /v1/documents", (it) => {
  describe("field rules (400 with the JSON body, nothing created)", () => {
    it.effect("title: required, a string, non-blank, at most 255 characters", () =>
      Effect.gen(function*() {
        const { title: _, ...untitled } = valid
        yield* expectRefused(untitled, "title", "missing")
        yield* expectRefused({ ...valid, title: 42 }, "title", "a number")
        yield* expectRefused({ ...valid, title: "   " }, "title", "blank")
        yield* expectRefused({ ...valid, title: "a".repeat(256) }, "title", "256 characters")
        yield* expectRefused({ ...valid, title: "a\u0000b" }, "title", "NUL")
      }))

    it.effect("title: one line, without text-direction characters", () =>
      Effect.gen(function*() {
        for (const brk of ["\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "\u000B", "\u000C"]) {
          yield* expectRefused({ ...valid, title: `Line one${brk}line two` }, "title", JSON.stringify(brk))
        }
        for (const control of ["\u200E", "\u200F", "\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u061C"]) {
          yield* expectRefused({ ...valid, title: `invoice${control}txt.exe` }, "title", `U+${control.codePointAt(0)!.toString(16)}`)
        }
      }))

    it.effect("content: required, non-blank markdown of at most 500,000 characters", () =>
      Effect.gen(function*() {
        const { content: _, ...empty } = valid
        yield* expectRefused(empty, "content", "missing")
        yield* expectRefused({ ...valid, content: " \n\t" }, "content", "blank")
        yield* expectRefused({ ...valid, content: "x".repeat(500_001) }, "content", "500,001 characters")
        yield* expectRefused({ ...valid, content: "text\u0000" }, "content", "NUL")
      }))

    it.effect("visibility: required, one of everyone, teams, admins", () =>
      Effect.gen(function*() {
        const { visibility: _, ...invisible } = valid
        yield* expectRefused(invisible, "visibility", "missing")
        yield* expectRefused({ ...valid, visibility: "public" }, "visibility", "unknown")
      }))

    it.effect("teamIds: required with teams (1 to 50, distinct), refused with everyone and admins", () =>
      Effect.gen(function*() {
        const { teamId } = yield* setup
        const ops = teamId("ops")
        yield* expectRefused({ ...valid, visibility: "teams" }, "teamIds", "teams without teamIds")
        yield* expectRefused({ ...valid, visibility: "everyone", teamIds: [ops] }, "teamIds", "everyone with teamIds")
        yield* expectRefused({ ...valid, visibility: "admins", teamIds: [ops] }, "teamIds", "admins with teamIds")
        yield* expectRefused({ ...valid, visibility: "teams", teamIds: [] }, "teamIds", "none")
        yield* expectRefused({ ...valid, visibility: "teams", teamIds: [ops, ops] }, "teamIds", "twice")
        yield* expectRefused({ ...valid, visibility: "teams", teamIds: Array.from({ length: 51 }, (_, i) => `team_${i}`) }, "teamIds", "51")
        yield* expectRefused({ ...valid, visibility: "teams", teamIds: ops }, "teamIds", "not an array")
      }))

    it.effect("asDraft: a boolean when given", () => expectRefused({ ...valid, asDraft: "yes" }, "asDraft", "a string"))

    it.effect("a body that is not JSON is 400 MALFORMED_JSON", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        expectError(yield* raw("POST", PATH, { token: token("admin"), body: "{\"title\": " }), 400, "MALFORMED_JSON")
      }))

    it.effect("a team that is not the organization's is 400 with message exactly 'Unknown teamId', and nothing is created", () =>
      Effect.gen(function*() {
        const { elsewhere, result, teamId, token } = yield* setup
        const before = yield* intakeCounts(result.organizationId)
        for (const teamIds of [[teamId("ops"), elsewhere.ids.teams.foreign!], ["team_made_up"]]) {
          for (const caller of ["admin", "viewer"]) {
            const response = yield* post(PATH, token(caller), { ...valid, visibility: "teams", teamIds })
            expectError(response, 400, "UNKNOWN_TEAM", caller)
            expect(response.json.message).toBe("Unknown teamId")
          }
        }
        // Another organization's admin naming this organization's team.
        const foreign = yield* post(PATH, token("otto"), { ...valid, visibility: "teams", teamIds: [teamId("ops")] })
        expect(foreign.json).toMatchObject({ code: "UNKNOWN_TEAM", message: "Unknown teamId" })
        expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      }))

    it.effect("the limits themselves pass: a 255-character title (emoji count once), 500,000 characters of markdown; the title is trimmed", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const long = yield* post(PATH, token("admin"), { ...valid, title: "😀".repeat(255), content: "y".repeat(500_000) })
        expect(long.status).toBe(201)
        const trimmed = yield* post(PATH, token("admin"), { ...valid, title: "  Spaced\tout  " })
        expect(trimmed.json.title).toBe("Spaced\tout")
        expect((yield* storedContent(trimmed.json.contentId)).title).toBe("Spaced\tout")
      }))
  })

  describe("the outcome", () => {
    it.effect("organization admins publish with any visibility: 201, the asked visibility and teams, processing queued", () =>
      Effect.gen(function*() {
        const { teamId, token } = yield* setup
        for (const caller of ["owner", "admin", "billingAdmin"]) {
          for (const audience of [{ visibility: "everyone" }, { visibility: "admins" }, { visibility: "teams", teamIds: [teamId("alpha"), teamId("partners")] }]) {
            const response = yield* post(PATH, token(caller), { ...valid, ...audience })
            expect(response.status, caller).toBe(201)
            expect(response.json).toEqual({
              mode: "published",
              draft: false,
              contentId: expect.stringMatching(/^cnt_/),
              reviewRequestId: null,
              title: "Travel policy",
              url: `http://localhost:3000/v1/content/${response.json.contentId}`
            })
            const stored = yield* storedContent(response.json.contentId)
            expect(stored, `${caller} ${audience.visibility}`).toMatchObject({ status: "published", visibility: audience.visibility, title_final: true, jobs: 1 })
            expect(stored.teamIds).toEqual("teamIds" in audience ? [...audience.teamIds].sort() : [])
          }
        }
      }))

    it.effect("a team admin publishes to teams they administer; everyone, admins or a team they do not administer go to review", () =>
      Effect.gen(function*() {
        const { teamId, token } = yield* setup
        const managed = yield* post(PATH, token("teamAdmin"), { ...valid, visibility: "teams", teamIds: [teamId("ops"), teamId("night")] })
        expect(managed.json).toMatchObject({ mode: "published", draft: false, reviewRequestId: null })
        for (const audience of [{ visibility: "everyone" }, { visibility: "admins" }, { visibility: "teams", teamIds: [teamId("alpha")] }]) {
          const response = yield* post(PATH, token("teamAdmin"), { ...valid, ...audience })
          expect(response.status).toBe(201)
          expect(response.json, audience.visibility).toMatchObject({ mode: "review", draft: false, reviewRequestId: expect.stringMatching(/^crr_/) })
          // The asked visibility is not kept: the content waits unreadable until a reviewer chooses.
          expect(yield* storedContent(response.json.contentId)).toMatchObject({ status: "in_review", visibility: "admins", teamIds: [], jobs: 0 })
        }
      }))

    it.effect("a viewer's document goes to review whatever they ask; asDraft is ignored there", () =>
      Effect.gen(function*() {
        const { teamId, token } = yield* setup
        for (const audience of [{ visibility: "everyone", asDraft: true }, { visibility: "teams", teamIds: [teamId("ops")] }]) {
          const response = yield* post(PATH, token("viewer"), { ...valid, ...audience })
          expect(response.json, audience.visibility).toMatchObject({ mode: "review", draft: false })
          const request = yield* raw("GET", `/v1/content-review-requests/${response.json.reviewRequestId}`, { token: token("viewer") })
          expect(request.json).toMatchObject({ status: "PENDING", resourceType: "document", kind: "content", title: "Travel policy", contentId: response.json.contentId })
        }
      }))

    it.effect("asDraft on a published document: draft true, stored as a draft, not processed", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const response = yield* post(PATH, token("admin"), { ...valid, asDraft: true })
        expect(response.json).toMatchObject({ mode: "published", draft: true, reviewRequestId: null })
        expect(yield* storedContent(response.json.contentId)).toMatchObject({ status: "draft", jobs: 0 })
        const notDraft = yield* post(PATH, token("admin"), { ...valid, asDraft: false })
        expect(notDraft.json.draft).toBe(false)
      }))
  })

  it.effect("the typed client derived from the contract sends a document and reads the 201 answer", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const client = yield* clientFor(token("owner"))
      const answer = yield* client.documents.create({ payload: { title: "From the client", content: "Text.", visibility: "admins" } })
      expect(answer).toMatchObject({ mode: "published", draft: false, reviewRequestId: null, title: "From the client" })
      const video = yield* client.videos.addHosted({ payload: { url: "https://youtu.be/onboardVid1", visibility: "everyone" } })
      expect(video.alreadyInLibrary).toBe(false)
    }))

  describe("the caller matrix", () => {
    it.effect("an external account may not add documents (403), and nothing is created", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const before = yield* intakeCounts(result.organizationId)
        expectError(yield* post(PATH, token("external"), valid), 403, "FORBIDDEN")
        expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      }))

    it.effect("a token without content:write is 403, even an organization admin's", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const response = yield* post(PATH, token("unscoped"), valid)
        expectError(response, 403, "FORBIDDEN")
        expect(response.json.message).toContain("content:write")
      }))

    it.effect("a missing, made-up, expired or revoked token is 401", () =>
      Effect.gen(function*() {
        const { badTokens } = yield* setup
        for (const [kind, bad] of Object.entries(badTokens)) expectError(yield* post(PATH, bad, valid), 401, "UNAUTHORIZED", kind)
      }))

    it.effect("another organization's admin publishes in their own organization only", () =>
      Effect.gen(function*() {
        const { elsewhere, token } = yield* setup
        const response = yield* post(PATH, token("otto"), { ...valid, visibility: "teams", teamIds: [elsewhere.ids.teams.foreign] })
        expect(response.json.mode).toBe("published")
        expect(yield* intakeCounts(elsewhere.organizationId)).toMatchObject({ content: 1, teams: 1 })
      }))
  })
})
