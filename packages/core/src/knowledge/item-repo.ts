import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { ItemKind } from "@tks/domain/knowledge"
import { contentVisible, itemVisible, type Reader } from "./access.js"

export interface EvidenceRow {
  readonly id: string
  readonly contentId: string
  readonly contentTitle: string
  readonly contentType: "document" | "video" | "guide"
  readonly sourceUrl: string | null
  readonly quote: string | null
  readonly charStart: number | null
  readonly charEnd: number | null
  readonly timeStart: number | null
  readonly timeEnd: number | null
  readonly confidence: number
}

interface ItemRow {
  readonly id: string
  readonly name: string
  readonly kind: ItemKind
  readonly body: string | null
  readonly parent_item_id: string | null
  readonly position: number
  readonly topic_id: string
  readonly topic_name: string
  readonly children: ReadonlyArray<
    { readonly id: string; readonly name: string; readonly position: number; readonly kind: ItemKind }
  >
  readonly evidence: ReadonlyArray<EvidenceRow>
}

/**
 * One item with its live children (in their order: position, then name) and its evidence;
 * the rest of the graph is graph-repo.ts's. Evidence shows only through
 * published content the reader can read.
 */
export class KnowledgeItemRepo extends Effect.Service<KnowledgeItemRepo>()("@tks/core/KnowledgeItemRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const nameOrder = (alias: string) => sql`lower(${sql(alias)}.name) COLLATE "C"`

    /** One item in the live graph that `reader` can read, with its live children and its evidence from readable, published content. */
    const item = (orgId: OrganizationId, reader: Reader, itemId: string) =>
      sql<ItemRow>`
        SELECT i.id, i.name, i.kind, i.body, i.parent_item_id, i.position, t.id AS topic_id, t.name AS topic_name,
          COALESCE((
            SELECT json_agg(json_build_object('id', ch.id, 'name', ch.name, 'position', ch.position, 'kind', ch.kind)
              ORDER BY ch.position, ${nameOrder("ch")}, ch.id)
            FROM items ch WHERE ch.org_id = i.org_id AND ch.parent_item_id = i.id AND ch.state = 'live'
          ), '[]') AS children,
          COALESCE((
            SELECT json_agg(json_build_object('id', e.id, 'contentId', ct.id, 'contentTitle', ct.title, 'contentType', ct.type,
              'sourceUrl', ct.source_url, 'quote', e.quote, 'charStart', e.char_start, 'charEnd', e.char_end,
              'timeStart', e.time_start_seconds, 'timeEnd', e.time_end_seconds, 'confidence', e.confidence)
              ORDER BY e.confidence DESC, lower(ct.title) COLLATE "C", e.char_start, e.time_start_seconds, e.id)
            FROM evidence e JOIN content ct ON ct.org_id = e.org_id AND ct.id = e.content_id
            WHERE e.org_id = i.org_id AND e.item_id = i.id AND ${contentVisible(sql, reader, "ct")}
          ), '[]') AS evidence
        FROM items i JOIN topics t ON t.org_id = i.org_id AND t.id = i.topic_id
        WHERE i.org_id = ${orgId} AND i.id = ${itemId} AND ${itemVisible(sql, reader, "i")}`.pipe(Effect.map((rows) => rows[0]))

    return { item } as const
  })
}) {}
