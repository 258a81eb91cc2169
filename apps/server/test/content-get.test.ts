import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { ImportResult } from "@tks/core/org-import/schema"
import { shelf, shelfNote } from "@tks/core/testing/content-library"
import { ContentId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

/** Acme's library, and Shelf for an external account on a team; every 404 case in depth is core's (content-get.test.ts). */
let shelfImport: ImportResult | undefined
const setup = Effect.gen(function*() {
  const matrix = yield* acmeCallerMatrix
  shelfImport ??= yield* importFixture(shelf)
  return { ...matrix, shelf: shelfImport, shelfToken: (key: string) => shelfImport!.tokens[key]! }
})

const admins: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const readers: ReadonlyArray<CallerKind> = [...admins, "viewer", "teamAdmin"]
const paths = (id: string) => [`/v1/content/${id}`, `/v1/content/${id}/text`]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/content/{id} and /text", (it) => {
  it.effect("every member who can read it gets the record with processingStatus and indexingStatus; no notes", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = result.ids.content.deployGuide!
      for (const kind of readers) {
        const response = yield* raw("GET", `/v1/content/${id}`, { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json, kind).toEqual({
          id,
          title: "Deployment Guide",
          type: "document",
          summary: "How releases reach production",
          durationSeconds: null,
          url: `http://localhost:3000/v1/content/${id}`,
          createdAt: "2026-04-01T09:00:00.000Z",
          updatedAt: "2026-04-01T09:00:00.000Z",
          processingStatus: "COMPLETED",
          processingError: null,
          indexingStatus: "COMPLETED",
          indexingError: null
        })
        expect(response.text, kind).not.toContain("Internal: rewrite the hotfix chapter")
      }
    }))

  it.effect("the typed client reads the record and its text", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const client = yield* clientFor(tokens.viewer)
      const video = yield* client.content.get({ path: { id: ContentId.make(result.ids.content.fireVideo!) } })
      expect(video).toMatchObject({ type: "video", durationSeconds: 212, processingStatus: "COMPLETED" })
      const text = yield* client.content.text({ path: { id: ContentId.make(result.ids.content.safetyGuide!) } })
      expect(text.chapters.map((chapter) => [chapter.sequence, chapter.headline])).toEqual([[1, "Fire drills"], [2, "First aid"]])
    }))

  it.effect("text: {contentId, title, type, url, chapters} with chapters in sequence", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = result.ids.content.deployGuide!
      const response = yield* raw("GET", `/v1/content/${id}/text`, { token: tokens.teamAdmin })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        contentId: id,
        title: "Deployment Guide",
        type: "document",
        url: `http://localhost:3000/v1/content/${id}`,
        chapters: [
          { id: expect.any(String), sequence: 1, headline: "Rolling out", text: expect.stringContaining("The canary step") },
          { id: expect.any(String), sequence: 2, headline: "Hotfixes", text: "A hotfix must be reviewed by a second engineer before it ships." }
        ]
      })
      expect(response.text).not.toContain("Internal: rewrite the hotfix chapter")
    }))

  it.effect("content shared with a team: its members read it (Victor, Tara; Xena as an external account on Red), others get 404", () =>
    Effect.gen(function*() {
      const { result, shelf, shelfToken, tokens } = yield* setup
      for (const path of paths(result.ids.content.opsRunbook!)) {
        for (const kind of [...admins, "viewer", "teamAdmin"] as const) expect((yield* raw("GET", path, { token: tokens[kind] })).status, `${kind} ${path}`).toBe(200)
        expectError(yield* raw("GET", path, { token: tokens.external }), 404, "NOT_FOUND", `external ${path}`)
      }
      for (const path of paths(shelf.ids.content.red!)) {
        const xena = yield* raw("GET", path, { token: shelfToken("xena") })
        expect(xena.status, path).toBe(200)
        expect(xena.text).not.toContain(shelfNote)
        expectError(yield* raw("GET", path, { token: shelfToken("xavi") }), 404, "NOT_FOUND", `xavi ${path}`)
        expectError(yield* raw("GET", path, { token: shelfToken("bo") }), 404, "NOT_FOUND", `bo ${path}`)
      }
    }))

  it.effect("404 No such content: admins-only content for others, unpublished content for anyone, another organization's admin, an unknown id", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const vault = result.ids.content.vaultPolicy!
      for (const path of paths(vault)) {
        for (const kind of admins) expect((yield* raw("GET", path, { token: tokens[kind] })).status, `${kind} ${path}`).toBe(200)
        for (const kind of ["viewer", "teamAdmin", "external", "otherOrgAdmin"] as const) {
          const response = yield* raw("GET", path, { token: tokens[kind] })
          expectError(response, 404, "NOT_FOUND", `${kind} ${path}`)
          expect(response.json.message).toBe("No such content")
        }
      }
      for (const key of ["draftDoc", "pendingDoc", "rejectedDoc"]) {
        for (const path of paths(result.ids.content[key]!)) expectError(yield* raw("GET", path, { token: tokens.owner }), 404, "NOT_FOUND", `${key} ${path}`)
      }
      for (const path of paths(result.ids.content.deployGuide!)) {
        expectError(yield* raw("GET", path, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND", `other org ${path}`)
      }
      for (const path of paths("cnt_unknown")) expectError(yield* raw("GET", path, { token: tokens.admin }), 404, "NOT_FOUND", path)
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const path of paths(result.ids.content.deployGuide!)) {
        for (const kind of badTokens) expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${kind} ${path}`)
      }
    }))
})
