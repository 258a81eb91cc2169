import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { fetchedAddresses } from "./support/adapters.js"
import { contributorsOnce, intakeCounts, post, storedContent } from "./support/contributors.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * POST /v1/documents/from-url. The test server's page fetcher
 * serves a few pages of a fake web (support/adapters.ts) and refuses every
 * other address as the SSRF guard would; the guard itself is the adapter's
 * test. Here: the wire, the field rules, the outcome and the exact refusal.
 */
const setup = contributorsOnce
const PATH = "/v1/documents/from-url"
const handbook = "https://handbook.example.test/onboarding"

layer(TestServerLive, { excludeTestServices: true })("POST /v1/documents/from-url", (it) => {
  it.effect("an organization admin's page is published: the site's name as title (not final), the fetched markdown, the final address", () =>
    Effect.gen(function*() {
      const { teamId, token } = yield* setup
      const response = yield* post(PATH, token("admin"), { url: handbook, visibility: "teams", teamIds: [teamId("alpha")] })
      expect(response.status).toBe(201)
      expect(response.json).toEqual({
        mode: "published",
        draft: false,
        contentId: expect.stringMatching(/^cnt_/),
        reviewRequestId: null,
        title: "Example Handbook",
        url: `http://localhost:3000/v1/content/${response.json.contentId}`
      })
      expect(yield* storedContent(response.json.contentId)).toMatchObject({
        type: "document",
        status: "published",
        visibility: "teams",
        teamIds: [teamId("alpha")],
        title: "Example Handbook",
        title_final: false,
        source_url: "https://handbook.example.test/onboarding/",
        jobs: 1
      })
    }))

  it.effect("the outcome table is the documents' one: a viewer's page goes to review, a team admin's page for their team is published", () =>
    Effect.gen(function*() {
      const { teamId, token } = yield* setup
      const viewer = yield* post(PATH, token("viewer"), { url: "https://files.example.test/policy.pdf", visibility: "everyone" })
      expect(viewer.json).toMatchObject({ mode: "review", draft: false, title: "files.example.test", reviewRequestId: expect.stringMatching(/^crr_/) })
      expect(yield* storedContent(viewer.json.contentId)).toMatchObject({ status: "in_review", visibility: "admins" })
      const teamAdmin = yield* post(PATH, token("teamAdmin"), { url: handbook, visibility: "teams", teamIds: [teamId("night")] })
      expect(teamAdmin.json.mode).toBe("published")
      const outside = yield* post(PATH, token("teamAdmin"), { url: handbook, visibility: "teams", teamIds: [teamId("partners")] })
      expect(outside.json.mode).toBe("review")
    }))

  it.effect("an address that cannot be fetched is 400 with message exactly 'This address cannot be fetched', and nothing is created", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const before = yield* intakeCounts(result.organizationId)
      for (
        const url of [
          "http://127.0.0.1:3000/v1/me",
          "http://169.254.169.254/latest/meta-data/",
          "http://metadata.google.internal/computeMetadata/v1/",
          "http://10.0.0.1/",
          "https://unreachable.example.test/"
        ]
      ) {
        const response = yield* post(PATH, token("admin"), { url, visibility: "everyone" })
        expectError(response, 400, "UNFETCHABLE_ADDRESS", url)
        expect(response.json.message, url).toBe("This address cannot be fetched")
      }
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
    }))

  it.effect("the address's own rules (http or https, no credentials, 2048 characters percent-encoded, no video site) are 400 before any fetch", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const before = yield* intakeCounts(result.organizationId)
      const fetchesBefore = fetchedAddresses.length
      const base = "https://handbook.example.test/"
      for (
        const url of [
          "ftp://handbook.example.test/file",
          "file:///etc/passwd",
          "handbook.example.test/onboarding",
          "https://user:secret@handbook.example.test/onboarding",
          base + "a".repeat(2049 - base.length),
          base + "ü".repeat(400),
          "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
          "https://vimeo.com/76979871"
        ]
      ) {
        const response = yield* post(PATH, token("admin"), { url, visibility: "everyone" })
        expectError(response, 400, "VALIDATION_ERROR", url.slice(0, 60))
        expect(response.json.issues, url.slice(0, 60)).toEqual([{ path: "url", message: expect.any(String) }])
      }
      for (const body of [{ visibility: "everyone" }, { url: 42, visibility: "everyone" }, { url: handbook }]) {
        expectError(yield* post(PATH, token("admin"), body), 400, "VALIDATION_ERROR", JSON.stringify(body))
      }
      expect(fetchedAddresses.length).toBe(fetchesBefore)
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
    }))

  it.effect("visibility and teamIds follow the documents' rules, 'Unknown teamId' included", () =>
    Effect.gen(function*() {
      const { elsewhere, teamId, token } = yield* setup
      expectError(yield* post(PATH, token("admin"), { url: handbook, visibility: "teams" }), 400, "VALIDATION_ERROR")
      expectError(yield* post(PATH, token("admin"), { url: handbook, visibility: "admins", teamIds: [teamId("ops")] }), 400, "VALIDATION_ERROR")
      const unknown = yield* post(PATH, token("admin"), { url: handbook, visibility: "teams", teamIds: [elsewhere.ids.teams.foreign] })
      expect(unknown.json).toMatchObject({ code: "UNKNOWN_TEAM", message: "Unknown teamId" })
    }))

  it.effect("the caller matrix: external and a token without content:write 403, bad tokens 401, nothing fetched", () =>
    Effect.gen(function*() {
      const { badTokens, token } = yield* setup
      const fetchesBefore = fetchedAddresses.length
      expectError(yield* post(PATH, token("external"), { url: handbook, visibility: "everyone" }), 403, "FORBIDDEN")
      expectError(yield* post(PATH, token("unscoped"), { url: handbook, visibility: "everyone" }), 403, "FORBIDDEN")
      for (const [kind, bad] of Object.entries(badTokens)) {
        expectError(yield* post(PATH, bad, { url: handbook, visibility: "everyone" }), 401, "UNAUTHORIZED", kind)
      }
      expect(fetchedAddresses.length).toBe(fetchesBefore)
    }))
})
