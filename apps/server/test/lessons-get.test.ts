import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { trainco } from "@tks/core/testing/training-reads"
import { LessonId } from "@tks/domain/ids"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Train Co's lessons (packages/core/testing/training-reads.ts) with the caller matrix. */
const setup = callerMatrixOnce(trainco)

const piecesOf = (response: { json: any }): Array<string> => response.json.content.map((piece: { title: string }) => piece.title)

layer(TestServerLive, { excludeTestServices: true })("GET /v1/lessons/{id} and /v1/lessons/{id}/retraining-policy", (it) => {
  it.effect("the detail is the metadata with the source pieces in lesson order, each with its type and link", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = result.ids.lessons.basics!
      const content = result.ids.content
      const response = yield* raw("GET", `/v1/lessons/${id}`, { token: tokens.admin })
      expect(response.status).toBe(200)
      const piece = (key: string, title: string, type: string) => ({
        id: content[key],
        title,
        type,
        url: `http://localhost:3000/v1/content/${content[key]}`
      })
      expect(response.json).toEqual({
        id,
        title: "Forklift Safety Basics",
        status: "open",
        visibility: "everyone",
        personal: false,
        url: `http://localhost:3000/v1/lessons/${id}`,
        createdAt: "2026-01-10T00:00:00.000Z",
        updatedAt: "2026-01-10T00:00:00.000Z",
        // The draft is never a piece anyone reads.
        content: [
          piece("teamDoc", "Matrix Checklist", "document"),
          piece("guide", "Forklift Manual", "document"),
          piece("secret", "Vault Notes", "document"),
          piece("video", "Lifting Video", "video")
        ]
      })
    }))

  it.effect("the pieces are limited to the content the caller can read", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const path = `/v1/lessons/${result.ids.lessons.basics}`
      // Victor is on Matrix Team; Lena is not, and neither reads the admins' notes.
      expect(piecesOf(yield* raw("GET", path, { token: tokens.viewer }))).toEqual(["Matrix Checklist", "Forklift Manual", "Lifting Video"])
      expect(piecesOf(yield* raw("GET", path, { token: result.tokens.lena }))).toEqual(["Forklift Manual", "Lifting Video"])
      expect(piecesOf(yield* raw("GET", path, { token: tokens.billingAdmin }))).toHaveLength(4)
      const empty = yield* raw("GET", `/v1/lessons/${result.ids.lessons.adminOnly}`, { token: tokens.owner })
      expect(empty.json.content).toEqual([])
    }))

  it.effect("a lesson the caller cannot read is 404, as are another organization's lessons and unknown ids", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ids = result.ids.lessons
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        ["viewer, admins only", ids.adminOnly!, tokens.viewer],
        ["viewer, another team's", ids.partnerBrief!, tokens.viewer],
        ["team admin, admins only", ids.adminOnly!, tokens.teamAdmin],
        ["external, for everyone", ids.basics!, tokens.external],
        ["another organization's admin", ids.basics!, tokens.otherOrgAdmin],
        ["unknown", "les_nope", tokens.admin]
      ]
      for (const [label, id, token] of cases) {
        expectError(yield* raw("GET", `/v1/lessons/${id}`, { token }), 404, "NOT_FOUND", label)
        expectError(yield* raw("GET", `/v1/lessons/${id}/retraining-policy`, { token }), 404, "NOT_FOUND", label)
      }
      // The external account reads its team's lesson.
      expect((yield* raw("GET", `/v1/lessons/${ids.partnerBrief}`, { token: tokens.external })).status).toBe(200)
    }))

  it.effect("the retraining policy as set, and retrainingType none with nulls for a lesson without one", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ids = result.ids.lessons
      const client = yield* clientFor(tokens.viewer)
      expect(yield* client.lessons.retrainingPolicy({ path: { id: LessonId.make(ids.basics!) } })).toEqual({
        lessonId: ids.basics,
        retrainingType: "recurring",
        intervalDays: 180,
        completionMode: "changed_material",
        updatedAt: "2026-02-01T08:30:00.000Z"
      })
      expect(yield* client.lessons.retrainingPolicy({ path: { id: LessonId.make(ids.refresher!) } })).toEqual({
        lessonId: ids.refresher,
        retrainingType: "none",
        intervalDays: null,
        completionMode: null,
        updatedAt: null
      })
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        for (const suffix of ["", "/retraining-policy"]) {
          const path = `/v1/lessons/${result.ids.lessons.basics}${suffix}`
          expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
        }
      }
    }))
})
