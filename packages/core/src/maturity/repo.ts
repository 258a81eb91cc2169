import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { CategorySlug } from "@tks/domain/knowledge"
import type { MaturityTally } from "@tks/domain/maturity"
import { contentVisible, lessonReadable, type Reader, spaceVisible } from "../knowledge/access.js"

/** One category's tally of what `reader` can read of the live graph. */
interface CategoryTallyRow extends MaturityTally {
  readonly slug: CategorySlug
  readonly name: string
}

/**
 * The counts behind knowledge maturity (domain maturity.ts), for the 14
 * categories at once: one statement, grouped by category, so the health list
 * and a single category (or the organization, their sum) cost the same.
 *
 * It aggregates the reader's whole readable graph, so the big tables are
 * read in one hashed pass each (items of the readable topics, the
 * organization's evidence with its content) rather than probed row by row.
 * Duties are probed by entity: with `= ANY(ARRAY(...))` over the few
 * readable spaces and categories, and as a hashed
 * semi-join for topics, which can be thousands (4,000 index probes took
 * 18 ms on the bench graph, the semi-join 6 ms).
 */
export class MaturityRepo extends Effect.Service<MaturityRepo>()("@tks/core/MaturityRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** RESPONSIBLE and ACCOUNTABLE duties on entities of `entityType` whose id passes `idIs`. */
    const owningDuties = (orgId: OrganizationId, entityType: "TOPIC" | "SPACE" | "CATEGORY", idIs: Fragment) =>
      sql`SELECT d.entity_type, d.entity_id FROM duties d
        WHERE d.org_id = ${orgId} AND d.entity_type = ${entityType} AND d.entity_id ${idIs}
          AND d.raci IN ('RESPONSIBLE', 'ACCOUNTABLE')`

    /** The 14 categories in display order, each with its tally; `freshSince` is where evidence stops counting as fresh. */
    const categoryTallies = (orgId: OrganizationId, reader: Reader, freshSince: Date) =>
      sql<CategoryTallyRow>`
        WITH RECURSIVE m_spaces AS MATERIALIZED (
          SELECT s.id, s.category_id FROM spaces s WHERE s.org_id = ${orgId} AND ${spaceVisible(sql, reader, "s")}
        ), m_topics AS MATERIALIZED (
          SELECT t.id, t.space_id, ms.category_id FROM m_spaces ms
          JOIN topics t ON t.org_id = ${orgId} AND t.space_id = ms.id AND t.state = 'live'
        ),
        -- Items out of the live graph and everything below them, walked down from the few such items
        -- (as the graph reads count live items, knowledge/graph-repo.ts).
        m_dead AS (
          SELECT i.id FROM m_topics mt JOIN items i ON i.org_id = ${orgId} AND i.topic_id = mt.id AND i.state <> 'live'
          UNION
          SELECT i.id FROM m_dead CROSS JOIN LATERAL (
            SELECT i.id FROM items i WHERE i.org_id = ${orgId} AND i.parent_item_id = m_dead.id OFFSET 0
          ) i
        ), m_items AS MATERIALIZED (
          SELECT i.id, i.topic_id FROM m_topics mt
          JOIN items i ON i.org_id = ${orgId} AND i.topic_id = mt.id AND i.state = 'live'
          WHERE NOT EXISTS (SELECT 1 FROM m_dead WHERE m_dead.id = i.id)
        ),
        -- Each item's newest evidence from published content the reader can read (one pass over the
        -- organization's evidence, hashed: cheaper than a probe per live item, which is most of them).
        m_evidence AS (
          SELECT e.item_id, max(c.updated_at) AS newest FROM evidence e
          JOIN content c ON c.org_id = e.org_id AND c.id = e.content_id
          WHERE e.org_id = ${orgId} AND ${contentVisible(sql, reader, "c")}
          GROUP BY e.item_id
        ), m_item_counts AS (
          SELECT mi.topic_id, count(*) AS items, count(me.item_id) AS evidenced, max(me.newest) AS newest
          FROM m_items mi LEFT JOIN m_evidence me ON me.item_id = mi.id
          GROUP BY mi.topic_id
        ), m_owning AS (
          ${owningDuties(orgId, "TOPIC", sql`IN (SELECT id FROM m_topics)`)}
          UNION ${owningDuties(orgId, "SPACE", sql`= ANY(ARRAY(SELECT id FROM m_spaces))`)}
          UNION ${owningDuties(orgId, "CATEGORY", sql`= ANY(ARRAY(SELECT DISTINCT category_id FROM m_spaces))`)}
        ), m_facts AS (
          SELECT mt.category_id, COALESCE(n.items, 0) AS items, COALESCE(n.evidenced, 0) AS evidenced,
            COALESCE(n.newest >= ${freshSince.toISOString()}::timestamptz, FALSE) AS fresh,
            (mt.id IN (SELECT entity_id FROM m_owning WHERE entity_type = 'TOPIC')
              OR mt.space_id IN (SELECT entity_id FROM m_owning WHERE entity_type = 'SPACE')
              OR mt.category_id IN (SELECT entity_id FROM m_owning WHERE entity_type = 'CATEGORY')) AS owned,
            EXISTS (
              SELECT 1 FROM lesson_topics lt JOIN lessons l ON l.org_id = lt.org_id AND l.id = lt.lesson_id
              WHERE lt.org_id = ${orgId} AND lt.topic_id = mt.id AND l.status = 'open' AND l.personal_for_user_id IS NULL
                AND ${lessonReadable(sql, reader, "l")}
            ) AS trained,
            EXISTS (
              SELECT 1 FROM topic_relations r JOIN m_topics rt ON rt.id = r.related_topic_id
              WHERE r.org_id = ${orgId} AND r.topic_id = mt.id
            ) AS related
          FROM m_topics mt LEFT JOIN m_item_counts n ON n.topic_id = mt.id
        )
        SELECT c.slug, c.name,
          count(f.category_id)::int AS topics,
          COALESCE(sum(f.items), 0)::int AS items,
          COALESCE(sum(f.evidenced), 0)::int AS "evidencedItems",
          count(*) FILTER (WHERE f.owned)::int AS "ownedTopics",
          count(*) FILTER (WHERE f.trained)::int AS "trainedTopics",
          count(*) FILTER (WHERE f.fresh)::int AS "freshTopics",
          count(*) FILTER (WHERE f.related)::int AS "relatedTopics"
        FROM categories c LEFT JOIN m_facts f ON f.category_id = c.id
        WHERE c.org_id = ${orgId}
        GROUP BY c.id, c.slug, c.name, c.position
        ORDER BY c.position`

    return { categoryTallies } as const
  })
}) {}
