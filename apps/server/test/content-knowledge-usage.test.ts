import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { ImportResult } from "@tks/core/org-import/schema"
import { shelf, shelfPopularLessons, shelfPopularTopics } from "@tks/core/testing/content-library"
import { ContentId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

/** Acme's library and graph, and Shelf for an external account on a team; the rules in depth are core's (content-knowledge-usage.test.ts). */
let shelfImport: ImportResult | undefined
const setup = Effect.gen(function*() {
  const matrix = yield* acmeCallerMatrix
  shelfImport ??= yield* importFixture(shelf)
  return { ...matrix, shelf: shelfImport, shelfToken: (key: string) => shelfImport!.tokens[key]! }
})

const admins: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const paths = (id: string) => [`/v1/content/${id}/knowledge`, `/v1/content/${id}/usage`]
const topicRef = (id: string, name: string, slug: string, itemCount: number) => ({
  id,
  name,
  slug,
  itemCount,
  url: `http://localhost:3000/v1/topics/${id}`
})
const counts = (json: any) => [json.lessons.count, json.lessons.preview.map((entry: { title: string }) => entry.title)]
const sole = (json: any) => [json.soleEvidenceTopics.count, json.soleEvidenceTopics.preview.map((entry: { title: string }) => entry.title)]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/content/{id}/knowledge and /usage", (it) => {
  it.effect("knowledge: each topic with itemCount counting its items evidenced by this record only", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const topics = result.ids.topics as Record<string, string>
      const read = (content: string, kind: CallerKind = "viewer") =>
        raw("GET", `/v1/content/${result.ids.content[content]}/knowledge`, { token: tokens[kind] })
      const deploy = yield* read("deployGuide")
      expect(deploy.status).toBe(200)
      expect(deploy.json).toEqual({
        contentId: result.ids.content.deployGuide,
        title: "Deployment Guide",
        topics: [topicRef(topics.deploy!, "Deployments", "deployments", 3)]
      })
      // Safety: Fire drill and First aid from the guide, Fire drill only from the video.
      expect((yield* read("safetyGuide")).json.topics).toEqual([topicRef(topics.safety!, "Safety", "safety", 2)])
      expect((yield* read("fireVideo")).json.topics).toEqual([topicRef(topics.safety!, "Safety", "safety", 1)])
      expect((yield* read("opsRunbook", "teamAdmin")).json.topics).toEqual([topicRef(topics.oncall!, "On-call", "on-call", 1)])
      expect((yield* read("vaultPolicy", "billingAdmin")).json.topics).toEqual([topicRef(topics.keys!, "Key rotation", "key-rotation", 1)])
    }))

  it.effect("knowledge: topics the caller cannot read are left out (Xena, external, sees the Red topic but not Forklifts)", () =>
    Effect.gen(function*() {
      const { shelf, shelfToken } = yield* setup
      const names = (key: string) =>
        raw("GET", `/v1/content/${shelf.ids.content.red}/knowledge`, { token: shelfToken(key) }).pipe(
          Effect.map((response) => response.json.topics.map((topic: { name: string }) => topic.name))
        )
      expect(yield* names("olga")).toEqual(["Forklifts", "Red topic"])
      expect(yield* names("vera")).toEqual(["Forklifts", "Red topic"])
      expect(yield* names("xena")).toEqual(["Red topic"])
    }))

  it.effect("usage: lessons follow the caller's lesson visibility (admins all three, viewer and team admin the two they can read)", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const usage = (kind: CallerKind) =>
        raw("GET", `/v1/content/${result.ids.content.deployGuide}/usage`, { token: tokens[kind] }).pipe(Effect.map((response) => response.json))
      for (const kind of admins) expect(counts(yield* usage(kind)), kind).toEqual([3, ["Incident command", "Onboarding", "Team drills"]])
      expect(counts(yield* usage("viewer"))).toEqual([2, ["Onboarding", "Team drills"]])
      expect(counts(yield* usage("teamAdmin"))).toEqual([2, ["Onboarding", "Team drills"]])
      const onboarding = result.ids.lessons.onboarding!
      expect((yield* usage("viewer")).lessons.preview[0]).toEqual({
        id: onboarding,
        title: "Onboarding",
        url: `http://localhost:3000/v1/lessons/${onboarding}`
      })
    }))

  it.effect("usage: an external account on a team counts only the lessons shared with that team", () =>
    Effect.gen(function*() {
      const { shelf, shelfToken } = yield* setup
      const usage = (key: string) =>
        raw("GET", `/v1/content/${shelf.ids.content.red}/usage`, { token: shelfToken(key) }).pipe(Effect.map((response) => response.json))
      expect(counts(yield* usage("xena"))).toEqual([1, ["Red drill"]])
      expect(counts(yield* usage("vera"))).toEqual([2, ["Open red lesson", "Red drill"]])
      expect(counts(yield* usage("olga"))).toEqual([3, ["Admin red lesson", "Open red lesson", "Red drill"]])
      expect(sole(yield* usage("xena"))).toEqual([1, ["Red topic"]])
    }))

  it.effect("usage: Deployments, On-call and Key rotation rest on their documents alone; Safety on neither the video nor the guide", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const soleFor = (content: string) =>
        raw("GET", `/v1/content/${result.ids.content[content]}/usage`, { token: tokens.admin }).pipe(Effect.map((response) => sole(response.json)))
      expect(yield* soleFor("deployGuide")).toEqual([1, ["Deployments"]])
      expect(yield* soleFor("opsRunbook")).toEqual([1, ["On-call"]])
      expect(yield* soleFor("vaultPolicy")).toEqual([1, ["Key rotation"]])
      expect(yield* soleFor("fireVideo")).toEqual([0, []])
      expect(yield* soleFor("safetyGuide")).toEqual([0, []])
      const deploy = yield* (yield* clientFor(tokens.viewer)).content.usage({ path: { id: ContentId.make(result.ids.content.deployGuide!) } })
      expect(deploy.soleEvidenceTopics.preview).toEqual([{
        id: result.ids.topics.deploy,
        title: "Deployments",
        url: `http://localhost:3000/v1/topics/${result.ids.topics.deploy}`
      }])
      expect(deploy.contentId).toBe(result.ids.content.deployGuide)
    }))

  it.effect("usage: counts are true totals, previews at most 20", () =>
    Effect.gen(function*() {
      const { shelf, shelfToken } = yield* setup
      const json = (yield* raw("GET", `/v1/content/${shelf.ids.content.popular}/usage`, { token: shelfToken("vera") })).json
      expect(json.lessons.count).toBe(shelfPopularLessons)
      expect(json.lessons.preview).toHaveLength(20)
      expect(json.soleEvidenceTopics.count).toBe(shelfPopularTopics)
      expect(json.soleEvidenceTopics.preview).toHaveLength(20)
    }))

  it.effect("404 No such content for content out of reach, unpublished, of another organization or unknown", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const path of paths(result.ids.content.deployGuide!)) {
        for (const kind of ["external", "otherOrgAdmin"] as const) expectError(yield* raw("GET", path, { token: tokens[kind] }), 404, "NOT_FOUND", `${kind} ${path}`)
      }
      for (const path of paths(result.ids.content.vaultPolicy!)) {
        for (const kind of ["viewer", "teamAdmin"] as const) expectError(yield* raw("GET", path, { token: tokens[kind] }), 404, "NOT_FOUND", `${kind} ${path}`)
        for (const kind of admins) expect((yield* raw("GET", path, { token: tokens[kind] })).status, `${kind} ${path}`).toBe(200)
      }
      for (const key of ["draftDoc", "pendingDoc", "rejectedDoc"]) {
        for (const path of paths(result.ids.content[key]!)) {
          const response = yield* raw("GET", path, { token: tokens.owner })
          expectError(response, 404, "NOT_FOUND", `${key} ${path}`)
          expect(response.json.message).toBe("No such content")
        }
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
