import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { DutyHolderType, EntityType, RaciRole, TierQualifier } from "@tks/domain/duty"
import { entityTypeOrder } from "@tks/domain/duty"
import type { OrganizationId } from "@tks/domain/ids"
import { type Reader, spaceVisible } from "../knowledge/access.js"
import type { Keyset } from "../common/keyset.js"
import { direct } from "@tks/db/direct"

/**
 * Where a duty row sits in the listing: entity type (TOPIC, ITEM, SPACE,
 * CATEGORY), lower-cased entity name, entity id, RACI role (R, A, C, I),
 * the id of the ancestor it is inherited from ("" when direct), duty id.
 */
export type DutyKey = readonly [number, string, string, number, string, string]

const Ordinal = Schema.Int.pipe(Schema.between(0, 3))

export interface DutyEntryRow {
  readonly duty_id: string
  readonly raci: RaciRole
  readonly raci_ord: number
  readonly entity_type: EntityType
  readonly type_ord: number
  readonly entity_id: string
  readonly entity_name: string
  readonly sort_name: string
  readonly inherited_type: EntityType | null
  readonly inherited_id: string | null
  readonly inherited_key: string
  readonly tier_qualifier: TierQualifier
  readonly tier_id: string | null
  readonly tier_label: string | null
}

/** The duty listing's keyset (see `DutyKey`); its SQL lives in `page` below. */
export const dutyOrder: Keyset<DutyKey, DutyEntryRow> = {
  key: Schema.Tuple(Ordinal, Schema.String, Schema.String, Ordinal, Schema.String, Schema.String),
  keyOf: (row) => [row.type_ord, row.sort_name, row.entity_id, row.raci_ord, row.inherited_key, row.duty_id]
}

const typeOrd = (type: EntityType): number => entityTypeOrder.indexOf(type)

/** Who holds the duties listed: a company role or a third party. */
export interface DutyHolderRef {
  readonly type: DutyHolderType
  readonly id: string
}

export class HolderDutiesRepo extends Effect.Service<HolderDutiesRepo>()("@tks/core/HolderDutiesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The duties one holder holds, each expanded to the entity it sits on
     * and every descendant (inheritedFrom = that entity): a category reaches
     * its spaces, topics and items; a space its topics and items; a topic its
     * items (child items included); an item its child items. Only the live
     * graph (a record and all its ancestors live), and only what `reader` can
     * read (the space's visibility; categories are readable by anyone here).
     *
     * Set-based and keyset-paginated in SQL. Duties, spaces, topics and items
     * are reached by index probes on small sets (`= ANY(ARRAY(...))`, or a
     * join driven by a handful of topics), never by a join the planner could
     * turn into a scan of a whole table; the child-item
     * recursion walks the materialised live items of the topics concerned.
     */
    const page = (input: {
      readonly orgId: OrganizationId
      readonly holder: DutyHolderRef
      readonly reader: Reader
      readonly entityType: EntityType | null
      readonly after: DutyKey | null
      readonly limit: number
    }) => {
      const { holder, orgId } = input
      const wanted = (type: EntityType) =>
        (input.entityType === null || input.entityType === type) && (input.after === null || input.after[0] <= typeOrd(type))
      // A constant the planner sees (a bound parameter in a SELECT list would be typed text).
      const ord = (type: EntityType) => sql.literal(String(typeOrd(type)))
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
      if (branches.length === 0) return Effect.succeed([] as ReadonlyArray<DutyEntryRow>)
      const reach = branches.reduce((all, branch) => sql`${all} UNION ALL ${branch}`)
      const after = input.after

      return direct(sql, sql<DutyEntryRow>`
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
            AND ${spaceVisible(sql, input.reader, "s")}
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
        ORDER BY p.type_ord, p.sort_name, p.entity_id COLLATE "C", p.raci_ord, p.inherited_key, p.duty_id COLLATE "C"`)
    }

    return { page } as const
  })
}) {}
