import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What the learning queue needs of each topic, one row per topic, so that
 * a queue reads one row per topic its person's duties reach instead of
 * three index probes (the topic, its lessons in lesson_topics, its
 * prerequisite relations) and a fourth per prerequisite (that topic's
 * state, space and name): on the issue 8 bench (1,786 topics reached) the
 * queue statement touched ~18,000 shared buffers before and ~2,800 after.
 *
 * - `space_id`, `name`, `live` (state = 'live'): the topic's own columns;
 * - `lesson_ids`: the lessons covering it (lesson_topics, migration 0009);
 * - `prerequisites`: its prerequisite topics (topic_relations of kind
 *   prerequisite), each as `[id, name, space_id, live]`, ordered by id.
 *
 * Statement-level triggers keep it so, whoever writes: topics (a row per
 * topic; a change of name, state or space also rewrites the prerequisites
 * of the topics that have it as one), topic_relations and lesson_topics
 * (itself kept by triggers on evidence, lesson_content and items). The
 * search index rewrites topics often; those updates change none of the
 * three columns and cost one join of the transition tables.
 *
 * As for lesson_topics: two transactions committing together, one adding a
 * prerequisite relation and the other renaming or archiving that
 * prerequisite, each see only their own half, so that entry keeps the old
 * name or state until either is written again. And two transactions that
 * change the coverage or prerequisites of the same topics update the same
 * rows: the second waits for the first, and two that reach them in
 * opposite orders can deadlock (PostgreSQL aborts one; a job retries).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE topic_learning (
    org_id text NOT NULL,
    topic_id text NOT NULL,
    space_id text NOT NULL,
    name text NOT NULL,
    live boolean NOT NULL,
    lesson_ids text[] NOT NULL DEFAULT '{}',
    prerequisites jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (org_id, topic_id)
  )`

  yield* sql.unsafe(`CREATE FUNCTION topic_learning_lessons(org text, topic text) RETURNS text[]
    LANGUAGE sql STABLE AS $$
      SELECT ARRAY(SELECT lt.lesson_id FROM lesson_topics lt WHERE lt.org_id = org AND lt.topic_id = topic ORDER BY lt.lesson_id)
    $$`)
  yield* sql.unsafe(`CREATE FUNCTION topic_learning_prerequisites(org text, topic text) RETURNS jsonb
    LANGUAGE sql STABLE AS $$
      SELECT COALESCE(jsonb_agg(jsonb_build_array(p.id, p.name, p.space_id, p.state = 'live') ORDER BY p.id), '[]')
      FROM topic_relations r JOIN topics p ON p.org_id = r.org_id AND p.id = r.related_topic_id
      WHERE r.org_id = org AND r.topic_id = topic AND r.kind = 'prerequisite'
    $$`)

  // PL/pgSQL plans a statement when it first runs, so a branch names only the transition tables its event has.
  yield* sql.unsafe(`CREATE FUNCTION topic_learning_after_topics() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO topic_learning (org_id, topic_id, space_id, name, live, lesson_ids, prerequisites)
        SELECT n.org_id, n.id, n.space_id, n.name, n.state = 'live',
          topic_learning_lessons(n.org_id, n.id), topic_learning_prerequisites(n.org_id, n.id)
        FROM new_rows n;
      ELSIF TG_OP = 'UPDATE' THEN
        UPDATE topic_learning tl SET space_id = n.space_id, name = n.name, live = n.state = 'live'
        FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
        WHERE tl.org_id = n.org_id AND tl.topic_id = n.id
          AND (o.name, o.state, o.space_id) IS DISTINCT FROM (n.name, n.state, n.space_id);
        IF FOUND THEN
          UPDATE topic_learning tl SET prerequisites = topic_learning_prerequisites(tl.org_id, tl.topic_id)
          FROM (SELECT DISTINCT r.org_id, r.topic_id FROM new_rows n
            JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
            JOIN topic_relations r ON r.org_id = n.org_id AND r.related_topic_id = n.id AND r.kind = 'prerequisite'
            WHERE (o.name, o.state, o.space_id) IS DISTINCT FROM (n.name, n.state, n.space_id)) d
          WHERE tl.org_id = d.org_id AND tl.topic_id = d.topic_id;
        END IF;
      ELSE
        DELETE FROM topic_learning tl USING old_rows o WHERE tl.org_id = o.org_id AND tl.topic_id = o.id;
      END IF;
      RETURN NULL;
    END
  $$`)
  // topic_relations and lesson_topics: recompute one column of the topics whose rows went or came.
  const refresh = (table: string, column: string, compute: string, added: string) =>
    sql.unsafe(`CREATE FUNCTION topic_learning_after_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE topic_learning tl SET ${column} = ${compute}(tl.org_id, tl.topic_id)
          FROM (SELECT DISTINCT org_id, topic_id FROM old_rows) d
          WHERE tl.org_id = d.org_id AND tl.topic_id = d.topic_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          UPDATE topic_learning tl SET ${column} = ${compute}(tl.org_id, tl.topic_id)
          FROM (SELECT DISTINCT org_id, topic_id FROM new_rows WHERE ${added}) d
          WHERE tl.org_id = d.org_id AND tl.topic_id = d.topic_id;
        END IF;
        RETURN NULL;
      END
    $$`)
  yield* refresh("topic_relations", "prerequisites", "topic_learning_prerequisites", "kind = 'prerequisite'")
  yield* refresh("lesson_topics", "lesson_ids", "topic_learning_lessons", "TRUE")

  for (const table of ["topics", "topic_relations", "lesson_topics"]) {
    yield* sql.unsafe(`CREATE TRIGGER ${table}_topic_learning_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION topic_learning_after_${table}()`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_topic_learning_update AFTER UPDATE ON ${table}
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION topic_learning_after_${table}()`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_topic_learning_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION topic_learning_after_${table}()`)
  }

  // What the tables already hold.
  yield* sql`INSERT INTO topic_learning (org_id, topic_id, space_id, name, live, lesson_ids, prerequisites)
    SELECT t.org_id, t.id, t.space_id, t.name, t.state = 'live',
      topic_learning_lessons(t.org_id, t.id), topic_learning_prerequisites(t.org_id, t.id)
    FROM topics t`

  // The queue's lessons to start from: the organization's open lessons made for everyone, read from this
  // index alone (they are most of the lessons a large reach covers; probed one by one they were ~800 probes).
  yield* sql`CREATE INDEX lessons_open_shared ON lessons (org_id, id) INCLUDE (created_at, visibility)
    WHERE status = 'open' AND personal_for_user_id IS NULL`
  yield* sql`CREATE INDEX lessons_personal ON lessons (org_id, personal_for_user_id) WHERE personal_for_user_id IS NOT NULL`
})
