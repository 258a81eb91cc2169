import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { contentRecord, insertContent, snapshot } from "./support/content-rows.js"
import { travelHandbook } from "./support/handbook.js"
import { evidenceOf, organization, processed, TestLayer } from "./support/processing.js"

layer(TestLayer, { excludeTestServices: true })("content processing: audiences, curated knowledge, edits and what is not processed", (it) => {
  it.effect("knowledge of admins-only or team content lands in a space with the same audience, never in everyone's", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId, red } = yield* organization
      const open = yield* insertContent({ orgId, body: travelHandbook })
      const admins = yield* insertContent({ orgId, body: travelHandbook, visibility: "admins" })
      const team = yield* insertContent({ orgId, body: travelHandbook, visibility: "teams", teamIds: [red] })
      for (const id of [open, admins, team]) yield* processed(orgId, id)
      const spacesOf = (contentId: string) =>
        sql<{ name: string; visibility: string; teams: string | null }>`
          SELECT DISTINCT s.name, s.visibility,
            (SELECT string_agg(st.team_id, ',') FROM space_teams st WHERE st.org_id = s.org_id AND st.space_id = s.id) AS teams
          FROM evidence e JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
          JOIN topics t ON t.org_id = i.org_id AND t.id = i.topic_id JOIN spaces s ON s.org_id = t.org_id AND s.id = t.space_id
          WHERE e.org_id = ${orgId} AND e.content_id = ${contentId} ORDER BY s.name`
      expect(yield* spacesOf(admins)).toEqual([
        { name: "Finance (admins)", visibility: "admins", teams: null },
        { name: "Health & Safety (admins)", visibility: "admins", teams: null },
        { name: "Operations (admins)", visibility: "admins", teams: null }
      ])
      expect(yield* spacesOf(team)).toEqual([
        { name: "Finance (Red team)", visibility: "teams", teams: red },
        { name: "Health & Safety (Red team)", visibility: "teams", teams: red },
        { name: "Operations (Red team)", visibility: "teams", teams: red }
      ])
      const shared = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM (
          SELECT i.topic_id FROM evidence e JOIN items i ON i.id = e.item_id WHERE e.org_id = ${orgId} AND e.content_id = ${admins}
          INTERSECT
          SELECT i.topic_id FROM evidence e JOIN items i ON i.id = e.item_id WHERE e.org_id = ${orgId} AND e.content_id = ${open}) x`
      expect(shared[0]!.n).toBe(0)
    }))

  it.effect("a live curated topic of the same name in the space takes the items; curated relations are left alone", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* organization
      const first = yield* insertContent({ orgId, body: travelHandbook })
      yield* processed(orgId, first)
      const [operations] = yield* sql<{ id: string }>`SELECT id FROM spaces WHERE org_id = ${orgId} AND auto_key = 'operations:everyone:'`
      yield* sql`INSERT INTO topics (org_id, id, space_id, name, slug, origin) VALUES (${orgId}, 'top_curated_visas', ${operations!.id}, 'Visas', 'visa-rules', 'curated')`
      const [booking] = yield* sql<{ id: string }>`SELECT id FROM topics WHERE org_id = ${orgId} AND name = 'Booking travel'`
      yield* sql`INSERT INTO topic_relations (org_id, topic_id, related_topic_id, kind, origin) VALUES
        (${orgId}, 'top_curated_visas', ${booking!.id}, 'related', 'curated')`
      const body = `## Visa rules\n- Passports: Passports must be valid for six months.\n\n## Booking travel\n- Approval: Every trip must be approved by a manager before booking.\n`
      const second = yield* insertContent({ orgId, body })
      yield* processed(orgId, second)
      const topics = yield* sql<{ id: string; origin: string }>`
        SELECT DISTINCT t.id, t.origin FROM evidence e JOIN items i ON i.id = e.item_id JOIN topics t ON t.id = i.topic_id
        WHERE e.org_id = ${orgId} AND e.content_id = ${second} ORDER BY t.origin`
      expect(topics).toEqual([{ id: "top_curated_visas", origin: "curated" }, { id: booking!.id, origin: "extracted" }])
      const visas = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM topics WHERE org_id = ${orgId} AND slug = 'visa-rules'`
      expect(visas[0]!.n).toBe(1)
      const kept = yield* sql<{ origin: string }>`
        SELECT origin FROM topic_relations WHERE org_id = ${orgId} AND topic_id = 'top_curated_visas' AND related_topic_id = ${booking!.id}`
      expect(kept).toEqual([{ origin: "curated" }])
    }))

  it.effect("processing an edited body again replaces the chapters and drops the evidence it no longer finds", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: travelHandbook })
      yield* processed(orgId, contentId)
      const before = yield* snapshot(orgId, contentId)
      const shorter = travelHandbook.slice(0, travelHandbook.indexOf("## Expense claims"))
      yield* sql`UPDATE content SET body = ${shorter} WHERE org_id = ${orgId} AND id = ${contentId}`
      yield* processed(orgId, contentId)
      const after = yield* snapshot(orgId, contentId)
      expect(after.chapters).toEqual(before.chapters.filter((id) => after.chapters.includes(id)))
      expect(after.chapters).toHaveLength(2)
      expect(after.evidence).toHaveLength(4)
      for (const row of yield* evidenceOf(orgId, contentId)) expect(shorter.slice(row.char_start, row.char_end)).toBe(row.quote)
    }))

  it.effect("evidence curated on the content (imported, edited in the app) survives processing; only extracted evidence is replaced", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: travelHandbook })
      yield* processed(orgId, contentId)
      const [item] = yield* sql<{ id: string }>`SELECT item_id AS id FROM evidence WHERE org_id = ${orgId} AND content_id = ${contentId} LIMIT 1`
      yield* sql`INSERT INTO evidence (org_id, id, item_id, content_id, quote, confidence, locator)
        VALUES (${orgId}, 'evd_curated', ${item!.id}, ${contentId}, 'Said in the meeting', 1, 'fixture:0')`
      yield* processed(orgId, contentId)
      const curated = yield* sql<{ origin: string }>`SELECT origin FROM evidence WHERE org_id = ${orgId} AND id = 'evd_curated'`
      expect(curated).toEqual([{ origin: "curated" }])
    }))

  it.effect("content that is not published is left as it is", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: travelHandbook, status: "in_review" })
      expect(yield* processed(orgId, contentId)).toEqual({ _tag: "Skipped", reason: "the content is in_review" })
      expect(yield* contentRecord(orgId, contentId)).toMatchObject({ processing_status: "PENDING", indexing_status: "PENDING" })
      expect((yield* snapshot(orgId, contentId)).chapters).toEqual([])
    }))

  it.effect("a video, which has no body, completes with no chapters and no knowledge", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: null, type: "video", title: "Onboarding video" })
      yield* processed(orgId, contentId)
      expect(yield* contentRecord(orgId, contentId)).toMatchObject({
        title: "Onboarding video",
        processing_status: "COMPLETED",
        indexing_status: "COMPLETED"
      })
      const made = yield* snapshot(orgId, contentId)
      expect([made.chapters, made.evidence]).toEqual([[], []])
    }))
})
