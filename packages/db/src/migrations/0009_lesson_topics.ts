import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Which topics each lesson covers (a lesson covers the
 * topics its content pieces are evidence for), kept as a table for the
 * learning queue, which needs it for every topic a person's duties reach on
 * every request: derived per request through items, evidence and
 * lesson_content it cost three index probes per item (about 25 ms of a
 * queue of 1,800 topics); read here it is one probe per topic.
 *
 * A pair (topic, lesson) is present while some content piece of the lesson
 * (lesson_content) is evidence (evidence.content_id) for a live item of the
 * topic. Statement-level triggers on the three tables keep it so, whoever
 * writes them (the organization import, content processing): rows that
 * appear add their pairs; rows that go or change have their former pairs
 * checked again and removed when nothing supports them any more. Set-based:
 * one statement per trigger however many rows a statement wrote.
 *
 * Two transactions committing at the same moment, one adding a lesson's
 * content piece and the other the evidence that joins it to a topic, each
 * see only their own half, so that pair would be missed (and, removing,
 * kept); nothing in the product writes lessons and evidence of the same
 * content concurrently today.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE lesson_topics (
    org_id text NOT NULL,
    topic_id text NOT NULL,
    lesson_id text NOT NULL,
    PRIMARY KEY (org_id, topic_id, lesson_id)
  )`
  yield* sql`CREATE INDEX lesson_topics_by_lesson ON lesson_topics (org_id, lesson_id)`

  yield* sql.unsafe(`CREATE FUNCTION lesson_topic_supported(org text, topic text, lesson text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
      SELECT EXISTS (
        SELECT 1 FROM lesson_content lc
        JOIN evidence ev ON ev.org_id = lc.org_id AND ev.content_id = lc.content_id
        JOIN items i ON i.org_id = ev.org_id AND i.id = ev.item_id
        WHERE lc.org_id = org AND lc.lesson_id = lesson AND i.topic_id = topic AND i.state = 'live')
    $$`)

  // Each function serves its table's INSERT (new_rows), UPDATE (old_rows, new_rows) and DELETE (old_rows)
  // triggers; PL/pgSQL plans a statement when it first runs, so a branch names only the tables its event has.
  const maintain = (table: string, gone: string, added: string) =>
    sql.unsafe(`CREATE FUNCTION lesson_topics_after_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          DELETE FROM lesson_topics lt USING (${gone}) g
          WHERE lt.org_id = g.org_id AND lt.topic_id = g.topic_id AND lt.lesson_id = g.lesson_id
            AND NOT lesson_topic_supported(g.org_id, g.topic_id, g.lesson_id);
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO lesson_topics (org_id, topic_id, lesson_id) ${added} ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END
    $$`)

  const pairsOfEvidence = (rows: string) => `
    SELECT DISTINCT r.org_id, i.topic_id, lc.lesson_id FROM ${rows} r
    JOIN items i ON i.org_id = r.org_id AND i.id = r.item_id
    JOIN lesson_content lc ON lc.org_id = r.org_id AND lc.content_id = r.content_id`
  const pairsOfLessonContent = (rows: string) => `
    SELECT DISTINCT r.org_id, i.topic_id, r.lesson_id FROM ${rows} r
    JOIN evidence ev ON ev.org_id = r.org_id AND ev.content_id = r.content_id
    JOIN items i ON i.org_id = ev.org_id AND i.id = ev.item_id`
  const pairsOfItems = (rows: string) => `
    SELECT DISTINCT r.org_id, r.topic_id, lc.lesson_id FROM ${rows} r
    JOIN evidence ev ON ev.org_id = r.org_id AND ev.item_id = r.id
    JOIN lesson_content lc ON lc.org_id = ev.org_id AND lc.content_id = ev.content_id`

  yield* maintain("evidence", pairsOfEvidence("old_rows"), `${pairsOfEvidence("new_rows")} WHERE i.state = 'live'`)
  yield* maintain("lesson_content", pairsOfLessonContent("old_rows"), `${pairsOfLessonContent("new_rows")} WHERE i.state = 'live'`)
  yield* maintain("items", pairsOfItems("old_rows"), `${pairsOfItems("new_rows")} WHERE r.state = 'live'`)

  for (const table of ["evidence", "lesson_content", "items"]) {
    yield* sql.unsafe(`CREATE TRIGGER ${table}_lesson_topics_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lesson_topics_after_${table}()`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_lesson_topics_update AFTER UPDATE ON ${table}
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lesson_topics_after_${table}()`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_lesson_topics_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lesson_topics_after_${table}()`)
  }

  // What the tables already hold.
  yield* sql`INSERT INTO lesson_topics (org_id, topic_id, lesson_id)
    SELECT DISTINCT lc.org_id, i.topic_id, lc.lesson_id FROM lesson_content lc
    JOIN evidence ev ON ev.org_id = lc.org_id AND ev.content_id = lc.content_id
    JOIN items i ON i.org_id = ev.org_id AND i.id = ev.item_id
    WHERE i.state = 'live'`
})
