import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { ContentId, type OrganizationId } from "@tks/domain/ids"
import type { Visibility } from "@tks/domain/roles"
import { newId } from "../../src/common/ids.js"

/** A content record as intake would leave it (the intake endpoints belong to another part). */
export const insertContent = (input: {
  readonly orgId: OrganizationId
  readonly body: string | null
  readonly title?: string
  readonly titleFinal?: boolean
  readonly type?: "document" | "video" | "guide"
  readonly status?: "draft" | "in_review" | "published"
  readonly visibility?: Visibility
  readonly teamIds?: ReadonlyArray<string>
}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = ContentId.make(newId("content"))
    yield* sql`
      INSERT INTO content (org_id, id, type, title, title_final, body, status, visibility)
      VALUES (${input.orgId}, ${id}, ${input.type ?? "document"}, ${input.title ?? "Untitled upload"}, ${input.titleFinal ?? false},
              ${input.body}, ${input.status ?? "published"}, ${input.visibility ?? "everyone"})`
    for (const teamId of input.teamIds ?? []) {
      yield* sql`INSERT INTO content_teams (org_id, content_id, team_id) VALUES (${input.orgId}, ${id}, ${teamId})`
    }
    return id
  }).pipe(Effect.orDie)

export interface ContentRecord {
  readonly title: string
  readonly title_final: boolean
  readonly summary: string | null
  readonly processing_status: string
  readonly processing_error: string | null
  readonly indexing_status: string
  readonly indexing_error: string | null
}

export const contentRecord = (orgId: string, contentId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<ContentRecord>`
      SELECT title, title_final, summary, processing_status, processing_error, indexing_status, indexing_error
      FROM content WHERE org_id = ${orgId} AND id = ${contentId}`).pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

/** What processing made from one content record, and in the whole organization: ids, so "the same" means the same rows. */
export const snapshot = (orgId: string, contentId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id).sort()
    return {
      chapters: ids(yield* sql<{ id: string }>`SELECT id FROM chapters WHERE org_id = ${orgId} AND content_id = ${contentId}`),
      evidence: ids(yield* sql<{ id: string }>`SELECT id FROM evidence WHERE org_id = ${orgId} AND content_id = ${contentId}`),
      items: ids(yield* sql<{ id: string }>`
        SELECT DISTINCT i.id FROM items i JOIN evidence e ON e.org_id = i.org_id AND e.item_id = i.id
        WHERE i.org_id = ${orgId} AND e.content_id = ${contentId}`),
      topics: ids(yield* sql<{ id: string }>`
        SELECT DISTINCT i.topic_id AS id FROM items i JOIN evidence e ON e.org_id = i.org_id AND e.item_id = i.id
        WHERE i.org_id = ${orgId} AND e.content_id = ${contentId}`),
      organization: (yield* sql<{ spaces: number; topics: number; items: number; evidence: number; relations: number }>`
        SELECT (SELECT count(*)::int FROM spaces WHERE org_id = ${orgId}) AS spaces,
               (SELECT count(*)::int FROM topics WHERE org_id = ${orgId}) AS topics,
               (SELECT count(*)::int FROM items WHERE org_id = ${orgId}) AS items,
               (SELECT count(*)::int FROM evidence WHERE org_id = ${orgId}) AS evidence,
               (SELECT count(*)::int FROM topic_relations WHERE org_id = ${orgId}) AS relations`)[0]!,
      relations: (yield* sql<{ pair: string }>`
        SELECT topic_id || '>' || related_topic_id || ':' || origin AS pair FROM topic_relations WHERE org_id = ${orgId}
        ORDER BY 1`).map((row) => row.pair)
    }
  }).pipe(Effect.orDie)
