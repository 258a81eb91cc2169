import type { Statement } from "@effect/sql"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DutyHolderType, EntityType, RaciRole, TierQualifier } from "@tks/domain/duty"
import type { OrganizationId } from "@tks/domain/ids"
import { itemVisible, type Reader, spaceVisible } from "../knowledge/access.js"

/** The entity (every row carries it) and, when any reaches it, one duty. */
export interface EntityDutyEntryRow {
  readonly entity_name: string
  readonly duty_id: string | null
  readonly raci: RaciRole
  readonly holder_type: DutyHolderType
  readonly holder_id: string
  readonly holder_name: string
  readonly via_type: EntityType
  readonly via_id: string
  readonly depth: number
  readonly tier_qualifier: TierQualifier
  readonly tier_id: string | null
  readonly tier_label: string | null
}

/** The entity types a duty reaching an entity of this type may sit on (it and its ancestors). */
const reachedThrough: Record<EntityType, ReadonlyArray<EntityType>> = {
  ITEM: ["ITEM", "TOPIC", "SPACE", "CATEGORY"],
  TOPIC: ["TOPIC", "SPACE", "CATEGORY"],
  SPACE: ["SPACE", "CATEGORY"],
  CATEGORY: ["CATEGORY"]
}

export class EntityDutiesRepo extends Effect.Service<EntityDutiesRepo>()("@tks/core/EntityDutiesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The entity and what a duty may sit on to reach it, each with its depth
     * (0: the entity; then parent items nearest first, the topic, the space,
     * the category). Empty when the entity is not in the organization's live
     * graph or `reader` cannot read its space; categories are readable by
     * anyone here.
     */
    const chainOf = (orgId: OrganizationId, reader: Reader, type: EntityType, id: string): Statement.Fragment => {
      // The space `s` and its category, `depth` levels above the entity.
      const above = (depth: Statement.Fragment) =>
        sql`('SPACE', s.id, ${depth} + 1, NULL), ('CATEGORY', s.category_id, ${depth} + 2, NULL)`
      switch (type) {
        case "CATEGORY":
          return sql`
            chain (entity_type, entity_id, depth, name) AS (
              SELECT 'CATEGORY', c.id, 0, c.name FROM categories c WHERE c.org_id = ${orgId} AND c.id = ${id}
            )`
        case "SPACE":
          return sql`
            chain (entity_type, entity_id, depth, name) AS (
              SELECT v.* FROM spaces s CROSS JOIN LATERAL (VALUES ('SPACE', s.id, 0, s.name), ('CATEGORY', s.category_id, 1, NULL)) v
              WHERE s.org_id = ${orgId} AND s.id = ${id} AND ${spaceVisible(sql, reader, "s")}
            )`
        case "TOPIC":
          return sql`
            chain (entity_type, entity_id, depth, name) AS (
              SELECT v.* FROM topics t JOIN spaces s ON s.org_id = t.org_id AND s.id = t.space_id
              CROSS JOIN LATERAL (VALUES ('TOPIC', t.id, 0, t.name), ${above(sql`0`)}) v
              WHERE t.org_id = ${orgId} AND t.id = ${id} AND t.state = 'live' AND ${spaceVisible(sql, reader, "s")}
            )`
        case "ITEM":
          // itemVisible holds the item, its parents, its topic and space live, and the space readable.
          return sql`
            up (id, name, parent_item_id, topic_id, depth) AS (
              SELECT i.id, i.name, i.parent_item_id, i.topic_id, 0 FROM items i
              WHERE i.org_id = ${orgId} AND i.id = ${id} AND ${itemVisible(sql, reader, "i")}
              UNION ALL
              SELECT p.id, NULL::text, p.parent_item_id, p.topic_id, up.depth + 1 FROM up
              JOIN items p ON p.org_id = ${orgId} AND p.id = up.parent_item_id
            ),
            chain (entity_type, entity_id, depth, name) AS (
              SELECT 'ITEM', up.id, up.depth, up.name FROM up
              UNION ALL
              SELECT v.* FROM (SELECT (SELECT max(depth) + 1 FROM up) AS depth, topic_id FROM up WHERE depth = 0) top
              JOIN topics t ON t.org_id = ${orgId} AND t.id = top.topic_id
              JOIN spaces s ON s.org_id = t.org_id AND s.id = t.space_id
              CROSS JOIN LATERAL (VALUES ('TOPIC', t.id, top.depth, NULL), ${above(sql`top.depth`)}) v
            )`
      }
    }

    /**
     * Every duty reaching the entity (on it or an ancestor), one row each,
     * with the entity's name on every row; one row with a null duty when
     * none does; no row when the entity cannot be read. Ordered: direct
     * first, then by ancestor depth, RACI (R, A, C, I), holder name, duty id.
     * Duties are probed per entity type with `= ANY(ARRAY(...))` on
     * duties_by_entity (a join could scan the whole duty table).
     */
    const forEntity = (input: {
      readonly orgId: OrganizationId
      readonly reader: Reader
      readonly entityType: EntityType
      readonly entityId: string
    }) => {
      const { orgId } = input
      const probes = reachedThrough[input.entityType].map((type) =>
        sql`(d.entity_type = ${type} AND d.entity_id = ANY(ARRAY(SELECT entity_id FROM chain WHERE entity_type = ${type})))`
      )
      return sql<EntityDutyEntryRow>`
        WITH RECURSIVE ${chainOf(orgId, input.reader, input.entityType, input.entityId)},
        duty AS (
          SELECT d.id, d.raci, d.holder_type, d.holder_id, d.tier_qualifier, d.tier_id, c.entity_type AS via_type, c.entity_id AS via_id, c.depth,
            CASE d.raci WHEN 'RESPONSIBLE' THEN 0 WHEN 'ACCOUNTABLE' THEN 1 WHEN 'CONSULTED' THEN 2 ELSE 3 END AS raci_ord
          FROM duties d JOIN chain c ON c.entity_type = d.entity_type AND c.entity_id = d.entity_id
          WHERE d.org_id = ${orgId} AND (${sql.or(probes)})
        ),
        held AS (
          SELECT du.*,
            CASE du.holder_type WHEN 'role' THEN r.name WHEN 'team' THEN tm.name WHEN 'person' THEN u.name ELSE tp.name END AS holder_name,
            -- Only a company role with an advancement path keeps its qualifier.
            (du.holder_type = 'role' AND EXISTS (
              SELECT 1 FROM advancement_tiers a WHERE a.org_id = ${orgId} AND a.role_id = du.holder_id)) AS has_tiers
          FROM duty du
          LEFT JOIN company_roles r ON du.holder_type = 'role' AND r.org_id = ${orgId} AND r.id = du.holder_id
          LEFT JOIN teams tm ON du.holder_type = 'team' AND tm.org_id = ${orgId} AND tm.id = du.holder_id
          LEFT JOIN users u ON du.holder_type = 'person' AND u.org_id = ${orgId} AND u.id = du.holder_id
          LEFT JOIN third_parties tp ON du.holder_type = 'third_party' AND tp.org_id = ${orgId} AND tp.id = du.holder_id
        )
        SELECT target.name AS entity_name, h.id AS duty_id, h.raci, h.holder_type, h.holder_id, h.holder_name,
          h.via_type, h.via_id, h.depth,
          CASE WHEN h.has_tiers THEN h.tier_qualifier ELSE 'ALL' END AS tier_qualifier,
          CASE WHEN h.has_tiers AND h.tier_qualifier <> 'ALL' THEN h.tier_id END AS tier_id,
          CASE WHEN h.has_tiers AND h.tier_qualifier <> 'ALL' THEN tier.label END AS tier_label
        FROM (SELECT name FROM chain WHERE depth = 0) target
        -- A duty whose holder record is gone names no one: left out.
        LEFT JOIN held h ON h.holder_name IS NOT NULL
        LEFT JOIN advancement_tiers tier ON tier.org_id = ${orgId} AND tier.id = h.tier_id
        ORDER BY h.depth, h.raci_ord, lower(h.holder_name) COLLATE "C", h.id COLLATE "C"`
    }

    return { forEntity } as const
  })
}) {}
