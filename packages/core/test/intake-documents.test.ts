import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { policies } from "@tks/domain/policies"
import type { NewDocument } from "@tks/domain/intake"
import { Documents } from "../src/intake/documents.js"
import { clearOfMinuteEnd, contributorsOnce, fetched, IntakeTestLayer, intakeCounts, rowsAbout } from "./support/intake.js"

const setup = contributorsOnce()

const body = (fields: Partial<NewDocument> = {}): NewDocument => ({
  title: "Travel policy",
  content: "# Travel\n\nBook through the portal.",
  visibility: "everyone",
  ...fields
})

layer(IntakeTestLayer)("adding a document, written or from an address", (it) => {
  it.effect("an organization admin publishes: the asked visibility and teams, a final title, the body, a processing job", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const ops = org.teamId("ops"), alpha = org.teamId("alpha")
      const { answer } = yield* documents.submit(org.access("admin", policies.intake.document), body({ visibility: "teams", teamIds: [ops, alpha] }))
      expect(answer).toMatchObject({ mode: "published", draft: false, reviewRequestId: null, title: "Travel policy" })
      expect(answer.url).toMatch(new RegExp(`/v1/content/${answer.contentId}$`))
      const rows = yield* rowsAbout(answer.contentId)
      expect(rows.content).toMatchObject({ status: "published", visibility: "teams", title_final: true, body: "# Travel\n\nBook through the portal.", created_by: org.userId("admin") })
      expect(rows.teamIds).toEqual([ops, alpha].sort())
      expect(rows.jobs).toEqual([{ kind: "content.process", status: "PENDING" }])
      expect(rows.reviews).toEqual([])
    }))

  it.effect("asDraft leaves a published document unpublished: draft true, status draft, no job", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const { answer } = yield* documents.submit(org.access("owner", policies.intake.document), body({ visibility: "admins", asDraft: true }))
      expect(answer).toMatchObject({ mode: "published", draft: true, reviewRequestId: null })
      const rows = yield* rowsAbout(answer.contentId)
      expect(rows.content).toMatchObject({ status: "draft", visibility: "admins" })
      expect(rows.jobs).toEqual([])
    }))

  it.effect("a team admin publishes to teams they all administer", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const { answer } = yield* documents.submit(
        org.access("teamAdmin", policies.intake.document),
        body({ visibility: "teams", teamIds: [org.teamId("ops"), org.teamId("night")] })
      )
      expect(answer.mode).toBe("published")
      expect((yield* rowsAbout(answer.contentId)).teamIds).toEqual([org.teamId("ops"), org.teamId("night")].sort())
    }))

  it.effect("review: unreadable content kept for admins only (the asked visibility is dropped), a PENDING request, no job; asDraft ignored", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const { answer } = yield* documents.submit(
        org.access("member01", policies.intake.document),
        body({ title: "Team notes", visibility: "teams", teamIds: [org.teamId("alpha")], asDraft: true })
      )
      expect(answer).toMatchObject({ mode: "review", draft: false, title: "Team notes" })
      const rows = yield* rowsAbout(answer.contentId)
      expect(rows.content).toMatchObject({ status: "in_review", visibility: "admins", title_final: true })
      expect(rows.teamIds).toEqual([])
      expect(rows.jobs).toEqual([])
      expect(rows.reviews).toEqual([
        { id: answer.reviewRequestId, status: "PENDING", resource_type: "document", kind: "content", title: "Team notes", submitter_id: org.userId("member01") }
      ])
    }))

  it.effect("a team of another organization is 400 Unknown teamId, and nothing is created", () =>
    Effect.gen(function*() {
      const { contributors: org, elsewhere } = yield* setup
      const documents = yield* Documents
      const before = yield* intakeCounts(org.organizationId)
      for (const key of ["admin", "member02"]) {
        const error = yield* Effect.flip(
          documents.submit(org.access(key, policies.intake.document), body({ visibility: "teams", teamIds: [org.teamId("ops"), elsewhere.teamId("foreign")] }))
        )
        expect(error).toMatchObject({ _tag: "BadRequest", code: "UNKNOWN_TEAM", message: "Unknown teamId" })
      }
      expect(yield* intakeCounts(org.organizationId)).toEqual(before)
    }))

  it.effect("the fourth review-bound submission in a minute is refused with REVIEW_SUBMISSION_LIMIT_REACHED, shared with from-url, and creates nothing", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const member = org.access("member03", policies.intake.document)
      yield* clearOfMinuteEnd
      // Each granted submission answers what is left of the tightest window, for the transport to report.
      expect((yield* documents.submit(member, body())).allowance).toMatchObject({ limit: 3, remaining: 2 })
      expect((yield* documents.submit(member, body())).allowance).toMatchObject({ limit: 3, remaining: 1 })
      yield* documents.submitFromUrl(org.access("member03", policies.intake.documentFromUrl), { url: "https://wiki.example.test/handbook", visibility: "everyone" })
      const before = yield* intakeCounts(org.organizationId)
      const fetchesBefore = fetched.length
      const refused = yield* Effect.flip(documents.submit(member, body()))
      expect(refused).toMatchObject({ _tag: "TooManyRequests", code: "REVIEW_SUBMISSION_LIMIT_REACHED", limit: 3 })
      const refusedFromUrl = yield* Effect.flip(
        documents.submitFromUrl(org.access("member03", policies.intake.documentFromUrl), { url: "https://wiki.example.test/handbook", visibility: "everyone" })
      )
      expect(refusedFromUrl).toMatchObject({ _tag: "TooManyRequests", code: "REVIEW_SUBMISSION_LIMIT_REACHED" })
      // Nothing created, and the limited call fetched nothing.
      expect(yield* intakeCounts(org.organizationId)).toEqual(before)
      expect(fetched.length).toBe(fetchesBefore)
      // Another person has their own allowance.
      expect((yield* documents.submit(org.access("member04", policies.intake.document), body())).answer.mode).toBe("review")
    }))

  it.effect("published submissions do not count against the review-submission limit", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const teamAdmin = org.access("teamAdmin", policies.intake.document)
      for (let i = 0; i < 5; i++) {
        const published = yield* documents.submit(teamAdmin, body({ visibility: "teams", teamIds: [org.teamId("night")] }))
        expect([published.answer.mode, published.allowance]).toEqual(["published", null])
      }
      expect((yield* documents.submit(teamAdmin, body({ visibility: "everyone" }))).answer.mode).toBe("review")
    }))

  it.effect("from an address: the fetched markdown is the body, the site's name the provisional title, the final address the source", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const { answer } = yield* documents.submitFromUrl(org.access("owner", policies.intake.documentFromUrl), {
        url: "https://wiki.example.test/handbook",
        visibility: "everyone"
      })
      // The site's name arrives with a line break and a direction override: the title is one clean line.
      expect(answer).toMatchObject({ mode: "published", draft: false, title: "Example Wiki" })
      const rows = yield* rowsAbout(answer.contentId)
      expect(rows.content).toMatchObject({
        status: "published",
        title: "Example Wiki",
        title_final: false,
        // A NUL from outside is dropped: PostgreSQL cannot store it.
        body: "# Handbook\n\nWe ship on Tuesdays.\n",
        source_url: "https://wiki.example.test/handbook/"
      })
      expect(rows.jobs).toHaveLength(1)
    }))

  it.effect("from an address: one the fetcher refuses is 400 'This address cannot be fetched', and nothing is created", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const before = yield* intakeCounts(org.organizationId)
      const error = yield* Effect.flip(
        documents.submitFromUrl(org.access("admin", policies.intake.documentFromUrl), { url: "http://169.254.169.254/latest/meta-data", visibility: "everyone" })
      )
      expect(error).toMatchObject({ _tag: "BadRequest", code: "UNFETCHABLE_ADDRESS", message: "This address cannot be fetched" })
      expect(yield* intakeCounts(org.organizationId)).toEqual(before)
    }))

  it.effect("from an address: one that breaks the field's rules is refused before any fetch", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const documents = yield* Documents
      const fetchesBefore = fetched.length
      for (const url of ["ftp://wiki.example.test/x", "https://user:pw@wiki.example.test/", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "not a url"]) {
        const error = yield* Effect.flip(documents.submitFromUrl(org.access("admin", policies.intake.documentFromUrl), { url, visibility: "everyone" }))
        expect(error, url).toMatchObject({ _tag: "BadRequest", code: "VALIDATION_ERROR" })
      }
      expect(fetched.length).toBe(fetchesBefore)
    }))
})
