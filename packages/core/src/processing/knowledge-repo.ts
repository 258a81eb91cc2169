import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ItemKind } from "@tks/domain/knowledge"
import type { Visibility } from "@tks/domain/roles"
import { newId } from "../common/ids.js"

export interface SpaceToFind {
  readonly orgId: string
  readonly categoryId: string
  readonly autoKey: string
  readonly name: string
  readonly visibility: Visibility
  readonly teamIds: ReadonlyArray<string>
}

export interface TopicToWrite {
  readonly name: string
  readonly slug: string
  readonly description: string | null
}

export interface ItemToWrite {
  readonly topicId: string
  readonly parentId: string | null
  readonly kind: ItemKind
  readonly name: string
  readonly body: string | null
  readonly originKey: string
  /** From 1 among the siblings this content states, in its order. */
  readonly position: number
}

export interface EvidenceToWrite {
  readonly itemId: string
  readonly chapterId: string | null
  readonly quote: string
  readonly start: number
  readonly end: number
  readonly confidence: number
  readonly locator: string
}

/**
 * Stage 2's writes. Each finds its record by a natural key before creating
 * one (spaces by auto key, topics by slug in their space, items by origin key
 * in their topic, evidence by item, content and locator), so a run repeated,
 * or two runs at once after a takeover, write each record once.
 */
export class ProcessingKnowledgeRepo extends Effect.Service<ProcessingKnowledgeRepo>()("@tks/core/ProcessingKnowledgeRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const categories = (orgId: string) =>
      sql<{ id: string; slug: string; name: string }>`SELECT id, slug, name FROM categories WHERE org_id = ${orgId}`

    const teamNames = (orgId: string, teamIds: ReadonlyArray<string>) =>
      sql<{ name: string }>`SELECT name FROM teams WHERE org_id = ${orgId} AND id = ANY(${teamIds}::text[])`.pipe(
        Effect.map((rows) => rows.map((row) => row.name))
      )

    /** The space of this auto key, created with the content's visibility and teams when it does not exist yet. */
    const findOrCreateSpace = (space: SpaceToFind) =>
      Effect.gen(function*() {
        const created = yield* sql<{ id: string }>`
          INSERT INTO spaces (org_id, id, category_id, name, visibility, auto_key)
          VALUES (${space.orgId}, ${newId("space")}, ${space.categoryId}, ${space.name}, ${space.visibility}, ${space.autoKey})
          ON CONFLICT (org_id, auto_key) WHERE auto_key IS NOT NULL DO NOTHING
          RETURNING id`
        if (created[0] !== undefined) {
          if (space.teamIds.length > 0) {
            yield* sql`
              INSERT INTO space_teams (org_id, space_id, team_id)
              SELECT ${space.orgId}, ${created[0].id}, unnest(${space.teamIds}::text[])`
          }
          return created[0].id
        }
        const found = yield* sql<{ id: string }>`SELECT id FROM spaces WHERE org_id = ${space.orgId} AND auto_key = ${space.autoKey}`
        return found[0]!.id
      })

    /**
     * The topic of each slug in the space: a live curated one of that slug
     * when there is one (knowledge joins what people made), else the
     * extracted one, created when missing. Slugs must be distinct.
     */
    const upsertTopics = (orgId: string, spaceId: string, topics: ReadonlyArray<TopicToWrite>) =>
      Effect.gen(function*() {
        const ids = new Map<string, string>()
        const curated = yield* sql<{ id: string; slug: string }>`
          SELECT id, slug FROM topics
          WHERE org_id = ${orgId} AND space_id = ${spaceId} AND slug = ANY(${topics.map((t) => t.slug)}::text[])
            AND state = 'live' AND origin = 'curated'
          ORDER BY created_at DESC, id DESC`
        for (const row of curated) ids.set(row.slug, row.id)
        const missing = topics.filter((topic) => !ids.has(topic.slug))
        if (missing.length === 0) return ids
        const written = yield* sql<{ id: string; slug: string }>`
          INSERT INTO topics (org_id, id, space_id, name, slug, description, origin)
          SELECT ${orgId}, t.id, ${spaceId}, t.name, t.slug, t.description, 'extracted'
          FROM unnest(${missing.map(() => newId("topic"))}::text[], ${missing.map((t) => t.name)}::text[],
                      ${missing.map((t) => t.slug)}::text[], ${missing.map((t) => t.description)}::text[])
            AS t(id, name, slug, description)
          ON CONFLICT (org_id, space_id, slug) WHERE origin = 'extracted' AND state = 'live'
          DO UPDATE SET description = coalesce(topics.description, excluded.description)
          RETURNING id, slug`
        for (const row of written) ids.set(row.slug, row.id)
        return ids
      })

    /**
     * Items of one depth (their parents already written); returns ids by
     * `topicId/originKey`. (topic, origin key) pairs must be distinct.
     *
     * Positions: the content's items keep its order, placed after the
     * siblings that other sources gave (curated items, another document's),
     * so each source's items stay together and in their own order. Siblings
     * this content gave on an earlier run do not count (they are being
     * rewritten, or no longer stated), so a run repeated writes the same places.
     */
    const upsertItems = (orgId: string, contentId: string, items: ReadonlyArray<ItemToWrite>) =>
      items.length === 0 ? Effect.succeed(new Map<string, string>()) : sql<{ id: string; topic_id: string; origin_key: string }>`
        WITH incoming AS (
          SELECT * FROM unnest(${items.map(() => newId("item"))}::text[], ${items.map((i) => i.topicId)}::text[],
                               ${items.map((i) => i.parentId)}::text[], ${items.map((i) => i.kind)}::text[],
                               ${items.map((i) => i.name)}::text[], ${items.map((i) => i.body)}::text[],
                               ${items.map((i) => i.originKey)}::text[], ${items.map((i) => i.position)}::int[])
            AS i(id, topic_id, parent_id, kind, name, body, origin_key, position)
        ), placed AS (
          SELECT g.topic_id, g.parent_id, COALESCE((
            SELECT max(s.position) FROM items s
            WHERE s.org_id = ${orgId} AND s.topic_id = g.topic_id
              AND (CASE WHEN g.parent_id IS NULL THEN s.parent_item_id IS NULL ELSE s.parent_item_id = g.parent_id END)
              AND NOT EXISTS (SELECT 1 FROM incoming x WHERE x.topic_id = s.topic_id AND x.origin_key = s.origin_key)
              AND NOT EXISTS (SELECT 1 FROM evidence e WHERE e.org_id = s.org_id AND e.item_id = s.id AND e.content_id = ${contentId})
          ), 0) AS after
          FROM (SELECT DISTINCT topic_id, parent_id FROM incoming) g
        )
        INSERT INTO items (org_id, id, topic_id, parent_item_id, kind, name, body, origin_key, position)
        SELECT ${orgId}, i.id, i.topic_id, i.parent_id, i.kind, i.name, i.body, i.origin_key, p.after + i.position
        FROM incoming i JOIN placed p ON p.topic_id = i.topic_id AND p.parent_id IS NOT DISTINCT FROM i.parent_id
        ON CONFLICT (org_id, topic_id, origin_key) WHERE origin_key IS NOT NULL
        DO UPDATE SET body = coalesce(items.body, excluded.body), position = excluded.position
        RETURNING id, topic_id, origin_key`.pipe(
        Effect.map((rows) => new Map(rows.map((row) => [`${row.topic_id}/${row.origin_key}`, row.id])))
      )

    /**
     * Makes the content's extracted evidence exactly `evidence`: each written
     * once by (item, content, locator), and what an earlier run wrote that
     * this one did not find removed. Curated evidence (imported, edited in the
     * app) is never removed by processing. (item, locator) pairs must be distinct.
     */
    const replaceEvidence = (orgId: string, contentId: string, evidence: ReadonlyArray<EvidenceToWrite>) =>
      Effect.gen(function*() {
        const kept = evidence.length === 0 ? [] : yield* sql<{ id: string }>`
          INSERT INTO evidence (org_id, id, item_id, content_id, chapter_id, quote, char_start, char_end, confidence, locator, origin)
          SELECT ${orgId}, e.id, e.item_id, ${contentId}, e.chapter_id, e.quote, e.char_start, e.char_end, e.confidence, e.locator, 'extracted'
          FROM unnest(${evidence.map(() => newId("evidence"))}::text[], ${evidence.map((e) => e.itemId)}::text[],
                      ${evidence.map((e) => e.chapterId)}::text[], ${evidence.map((e) => e.quote)}::text[],
                      ${evidence.map((e) => e.start)}::int[], ${evidence.map((e) => e.end)}::int[],
                      ${evidence.map((e) => e.confidence)}::float8[], ${evidence.map((e) => e.locator)}::text[])
            AS e(id, item_id, chapter_id, quote, char_start, char_end, confidence, locator)
          ON CONFLICT (org_id, item_id, content_id, locator)
          DO UPDATE SET chapter_id = excluded.chapter_id, quote = excluded.quote, char_start = excluded.char_start,
                        char_end = excluded.char_end, confidence = excluded.confidence
          RETURNING id`
        yield* sql`
          DELETE FROM evidence WHERE org_id = ${orgId} AND content_id = ${contentId} AND origin = 'extracted'
            AND id <> ALL(${kept.map((row) => row.id)}::text[])`
      })

    /**
     * The live topics this content is evidence for. Written as index probes
     * (`= ANY(ARRAY(...))`): on tables just filled, before statistics, the
     * join form was planned as topics x evidence (seconds at 1,700 rows).
     */
    const touchedTopics = (orgId: string, contentId: string) =>
      sql<{ topic_id: string }>`
        SELECT t.id AS topic_id FROM topics t
        WHERE t.org_id = ${orgId} AND t.state = 'live' AND t.id = ANY(ARRAY(
          SELECT DISTINCT i.topic_id FROM items i
          WHERE i.org_id = ${orgId} AND i.id = ANY(ARRAY(
            SELECT e.item_id FROM evidence e WHERE e.org_id = ${orgId} AND e.content_id = ${contentId}))))
        ORDER BY t.id`.pipe(Effect.map((rows) => rows.map((row) => row.topic_id)))

    return { categories, teamNames, findOrCreateSpace, upsertTopics, upsertItems, replaceEvidence, touchedTopics } as const
  })
}) {}
