import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { QuestionChapter, QuestionItem } from "@tks/adapters/questions/port"
import type { OrganizationId } from "@tks/domain/ids"
import { itemLive } from "../knowledge/access.js"
import type { QuizMaterialText } from "./generate.js"

/**
 * What a pop quiz asks about: one content record's material for the
 * question generator, in one statement: its chapters in sequence (its body as one chapter while it has
 * none, e.g. a document still processing), and the live items it is
 * evidence for, in the order it first cites them. Undefined when there is no
 * such record. Read whatever its status: a quiz sent on it stays answerable.
 */
export class PopQuizMaterial extends Effect.Service<PopQuizMaterial>()("@tks/core/PopQuizMaterial", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const of = (orgId: OrganizationId, contentId: string) =>
      sql<{
        title: string
        chapters: ReadonlyArray<QuestionChapter> | null
        items: ReadonlyArray<QuestionItem> | null
      }>`
        SELECT c.title,
          COALESCE(
            (SELECT json_agg(json_build_object('headline', ch.headline, 'text', ch.text) ORDER BY ch.sequence)
             FROM chapters ch WHERE ch.org_id = c.org_id AND ch.content_id = c.id),
            CASE WHEN c.body IS NULL THEN NULL ELSE json_build_array(json_build_object('headline', NULL, 'text', c.body)) END
          ) AS chapters,
          (SELECT json_agg(json_build_object('name', y.name, 'kind', y.kind, 'body', y.body, 'topicId', y.topic_id)
                           ORDER BY y.first_char, y.name, y.id)
           FROM (
             SELECT i.id, i.name, i.kind, i.body, i.topic_id, min(coalesce(ev.char_start, 0)) AS first_char
             FROM evidence ev
             JOIN items i ON i.org_id = ev.org_id AND i.id = ev.item_id
             WHERE ev.org_id = c.org_id AND ev.content_id = c.id AND ${itemLive(sql, "i")}
             GROUP BY i.id, i.name, i.kind, i.body, i.topic_id
           ) y) AS items
        FROM content c
        WHERE c.org_id = ${orgId} AND c.id = ${contentId}`.pipe(
        Effect.map(([row]): QuizMaterialText | undefined =>
          row === undefined ? undefined : { title: row.title, chapters: row.chapters ?? [], items: row.items ?? [] }
        )
      )

    return { of } as const
  })
}) {}
