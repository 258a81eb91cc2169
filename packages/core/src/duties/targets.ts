import type { SqlClient, Statement } from "@effect/sql"

/**
 * A duty sits on a category, space, topic or item and reaches everything
 * under it. Which duties a
 * person holds is holdings.ts; this is the other half of "does the person
 * hold a duty on this": what a duty may sit on to reach one topic or item.
 */

type Sql = SqlClient.SqlClient
type Fragment = Statement.Fragment

/**
 * What a duty may sit on to reach the live topic or item `entityId`
 * (entity_type, entity_id): the record itself, an item's parent items and
 * topic, then the space and the category. Empty when the record is not in
 * the live graph or `visible` (a condition on the topic `kt` or item `ki`)
 * rejects it.
 */
export const dutyTargets = (
  sql: Sql,
  orgId: string,
  target: { readonly type: "topic" | "item"; readonly id: string },
  visible: { readonly topic: (alias: string) => Fragment; readonly item: (alias: string) => Fragment }
): Fragment =>
  target.type === "topic"
    ? sql`
      SELECT v.entity_type, v.entity_id
      FROM topics kt
      JOIN spaces ks ON ks.org_id = kt.org_id AND ks.id = kt.space_id
      CROSS JOIN LATERAL (VALUES ('TOPIC', kt.id), ('SPACE', ks.id), ('CATEGORY', ks.category_id)) v(entity_type, entity_id)
      WHERE kt.org_id = ${orgId} AND kt.id = ${target.id} AND ${visible.topic("kt")}`
    : sql`
      WITH RECURSIVE up AS (
        SELECT ki.id, ki.parent_item_id, ki.topic_id FROM items ki
        WHERE ki.org_id = ${orgId} AND ki.id = ${target.id} AND ${visible.item("ki")}
        UNION ALL
        SELECT parent.id, parent.parent_item_id, parent.topic_id FROM up
        JOIN items parent ON parent.org_id = ${orgId} AND parent.id = up.parent_item_id
      )
      SELECT 'ITEM' AS entity_type, up.id AS entity_id FROM up
      UNION ALL
      SELECT v.entity_type, v.entity_id
      FROM items ki
      JOIN topics kt ON kt.org_id = ki.org_id AND kt.id = ki.topic_id
      JOIN spaces ks ON ks.org_id = kt.org_id AND ks.id = kt.space_id
      CROSS JOIN LATERAL (VALUES ('TOPIC', kt.id), ('SPACE', ks.id), ('CATEGORY', ks.category_id)) v(entity_type, entity_id)
      WHERE ki.org_id = ${orgId} AND ki.id = ${target.id} AND ${visible.item("ki")}`
