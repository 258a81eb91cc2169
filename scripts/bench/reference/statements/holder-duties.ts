import { entityTypeOrder, type EntityType } from "@tks/domain/duty"
import { literal, sql } from "../sql.js"
import { type Reader, spaceVisible } from "./access.js"

// Mirrors packages/core/src/duties/holder-duties-repo.ts (page): one
// holder's duties expanded over the live graph the reader can read. The body
// keeps the server's indentation: the text inside the templates is the
// statement's text.

/** type, lower-cased entity name, entity id, RACI, inherited-from key, duty id. */
export type DutyKey = readonly [number, string, string, number, string, string]

const typeOrd = (type: EntityType): number => entityTypeOrder.indexOf(type)

export const dutyPage = (input: {
      readonly orgId: string
      readonly holder: { readonly type: "role" | "third_party"; readonly id: string }
      readonly reader: Reader
      readonly entityType: EntityType | null
      readonly after: DutyKey | null
      readonly limit: number
    }) => {
      const { holder, orgId } = input
      const wanted = (type: EntityType) =>
        (input.entityType === null || input.entityType === type) && (input.after === null || input.after[0] <= typeOrd(type))
      // A constant the planner sees (a bound parameter in a SELECT list would be typed text).
      const ord = (type: EntityType) => literal(String(typeOrd(type)))
      const branches = [
        wanted("TOPIC") && sql`
          SELECT 'TOPIC' AS entity_type, ${ord("TOPIC")} AS type_ord, t.id AS entity_id, t.name AS entity_name, v.type AS via_type, v.id AS via_id
          FROM topic t CROSS JOIN LATERAL (VALUES ('TOPIC', t.id), ('SPACE', t.space_id), ('CATEGORY', t.category_id)) v(type, id)`,
        wanted("ITEM") && sql`
          SELECT 'ITEM', ${ord("ITEM")}, i.id, i.name, v.type, v.id
          FROM item i CROSS JOIN LATERAL (
            VALUES ('ITEM', i.id), ('TOPIC', i.topic_id), ('SPACE', i.space_id), ('CATEGORY', i.category_id)
            UNION ALL SELECT 'ITEM', a.id FROM unnest(i.ancestors) a(id)) v(type, id)`,
        wanted("SPACE") && sql`
          SELECT 'SPACE', ${ord("SPACE")}, s.id, s.name, v.type, v.id
          FROM space s CROSS JOIN LATERAL (VALUES ('SPACE', s.id), ('CATEGORY', s.category_id)) v(type, id)`,
        wanted("CATEGORY") && sql`
          SELECT 'CATEGORY', ${ord("CATEGORY")}, c.id, c.name, 'CATEGORY', c.id
          FROM categories c
          WHERE c.org_id = ${orgId} AND c.id = ANY(ARRAY(SELECT entity_id FROM duty WHERE entity_type = 'CATEGORY'))`
      ].filter((branch) => branch !== false)
      if (branches.length === 0) return null
      const reach = branches.reduce((all, branch) => sql`${all} UNION ALL ${branch}`)
      const after = input.after

      return sql`
        WITH RECURSIVE
        duty AS MATERIALIZED (
          SELECT d.id, d.raci, d.entity_type, d.entity_id, d.tier_qualifier, d.tier_id,
            CASE d.raci WHEN 'RESPONSIBLE' THEN 0 WHEN 'ACCOUNTABLE' THEN 1 WHEN 'CONSULTED' THEN 2 ELSE 3 END AS raci_ord
          FROM duties d
          WHERE d.org_id = ${orgId} AND d.holder_type = ${holder.type} AND d.holder_id = ${holder.id}
        ),
        -- Topics a TOPIC or ITEM duty needs (not their whole space).
        pinned_topic AS MATERIALIZED (
          SELECT entity_id AS id FROM duty WHERE entity_type = 'TOPIC'
          UNION
          SELECT i.topic_id FROM items i
          WHERE i.org_id = ${orgId} AND i.id = ANY(ARRAY(SELECT entity_id FROM duty WHERE entity_type = 'ITEM'))
        ),
        -- Spaces a duty sits on, under (topics, items) or above (categories).
        space_ref AS (
          SELECT entity_id AS id FROM duty WHERE entity_type = 'SPACE'
          UNION
          SELECT s.id FROM spaces s
          WHERE s.org_id = ${orgId} AND s.category_id = ANY(ARRAY(SELECT entity_id FROM duty WHERE entity_type = 'CATEGORY'))
          UNION
          SELECT t.space_id FROM topics t WHERE t.org_id = ${orgId} AND t.id = ANY(ARRAY(SELECT id FROM pinned_topic))
        ),
        -- Those of them in the live graph that the reader can read; "whole" when a duty reaches all of the space.
        space AS MATERIALIZED (
          SELECT s.id, s.name, s.category_id,
            (s.id = ANY(ARRAY(SELECT entity_id FROM duty WHERE entity_type = 'SPACE'))
              OR s.category_id = ANY(ARRAY(SELECT entity_id FROM duty WHERE entity_type = 'CATEGORY'))) AS whole
          FROM spaces s
          WHERE s.org_id = ${orgId} AND s.id = ANY(ARRAY(SELECT id FROM space_ref))
            AND ${spaceVisible(input.reader, "s")}
        ),
        topic AS MATERIALIZED (
          SELECT t.id, t.name, t.space_id, s.category_id
          FROM topics t JOIN space s ON s.id = t.space_id
          WHERE t.org_id = ${orgId} AND t.state = 'live'
            AND (t.space_id = ANY(ARRAY(SELECT id FROM space WHERE whole))
              OR t.id = ANY(ARRAY(SELECT id FROM pinned_topic)))
        ),
        -- The live items of those topics, with the topic's place in the graph.
        topic_item AS MATERIALIZED (
          SELECT i.id, i.name, i.topic_id, i.parent_item_id, t.space_id, t.category_id
          FROM topic t JOIN items i ON i.org_id = ${orgId} AND i.topic_id = t.id
          WHERE i.state = 'live'
        ),
        -- Live items reached from the top of their topic through live parents only; ancestors = parent chain.
        item AS (
          SELECT ti.id, ti.name, ti.topic_id, ti.space_id, ti.category_id, ARRAY[]::text[] AS ancestors
          FROM topic_item ti
          WHERE ti.parent_item_id IS NULL
          UNION ALL
          SELECT ti.id, ti.name, ti.topic_id, ti.space_id, ti.category_id, it.ancestors || it.id
          FROM item it JOIN topic_item ti ON ti.parent_item_id = it.id AND ti.topic_id = it.topic_id
        ),
        -- Each listed entity with every entity a duty may sit on to reach it (itself included).
        reach (entity_type, type_ord, entity_id, entity_name, via_type, via_id) AS (${reach}),
        entry AS (
          SELECT du.id AS duty_id, du.raci, du.raci_ord, r.entity_type, r.type_ord, r.entity_id, r.entity_name,
            lower(r.entity_name) COLLATE "C" AS sort_name,
            CASE WHEN r.via_id = r.entity_id THEN NULL ELSE du.entity_type END AS inherited_type,
            CASE WHEN r.via_id = r.entity_id THEN NULL ELSE du.entity_id END AS inherited_id,
            CASE WHEN r.via_id = r.entity_id THEN '' ELSE du.entity_id END COLLATE "C" AS inherited_key,
            du.tier_qualifier, du.tier_id
          FROM reach r JOIN duty du ON du.entity_type = r.via_type AND du.entity_id = r.via_id
          WHERE TRUE
            ${input.entityType === null ? sql`` : sql`AND r.entity_type = ${input.entityType}`}
        ),
        page AS (
          SELECT * FROM entry e
          ${
        after === null ? sql`` : sql`WHERE (e.type_ord, e.sort_name, e.entity_id COLLATE "C", e.raci_ord, e.inherited_key, e.duty_id COLLATE "C")
                > (${after[0]}, ${after[1]}, ${after[2]}, ${after[3]}, ${after[4]}, ${after[5]})`
      }
          ORDER BY e.type_ord, e.sort_name, e.entity_id COLLATE "C", e.raci_ord, e.inherited_key, e.duty_id COLLATE "C"
          LIMIT ${input.limit}
        ),
        -- Only a company role can have an advancement path; any other holder's duties reach ALL.
        role_path AS (
          SELECT ${
        holder.type === "role"
          ? sql`EXISTS (SELECT 1 FROM advancement_tiers WHERE org_id = ${orgId} AND role_id = ${holder.id})`
          : sql`FALSE`
      } AS has_tiers
        )
        SELECT p.duty_id, p.raci, p.raci_ord, p.entity_type, p.type_ord, p.entity_id, p.entity_name, p.sort_name,
          p.inherited_type, p.inherited_id, p.inherited_key,
          CASE WHEN role_path.has_tiers THEN p.tier_qualifier ELSE 'ALL' END AS tier_qualifier,
          CASE WHEN role_path.has_tiers AND p.tier_qualifier <> 'ALL' THEN p.tier_id END AS tier_id,
          CASE WHEN role_path.has_tiers AND p.tier_qualifier <> 'ALL' THEN tier.label END AS tier_label
        FROM page p CROSS JOIN role_path
        LEFT JOIN advancement_tiers tier ON tier.org_id = ${orgId} AND tier.id = p.tier_id
        ORDER BY p.type_ord, p.sort_name, p.entity_id COLLATE "C", p.raci_ord, p.inherited_key, p.duty_id COLLATE "C"`
    }

