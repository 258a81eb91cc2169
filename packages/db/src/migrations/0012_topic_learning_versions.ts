import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A version per organization of its `topic_learning` rows (migration 0011),
 * raised by every statement that changes one of them, so that a process may
 * keep an organization's topic graph in memory and know, from one indexed
 * read, whether it is still the committed one (the learning queue does:
 * core/src/learning-queue/topic-graph.ts).
 *
 * Raising it takes the organization's row lock until commit: transactions
 * that change the same organization's topics, prerequisites or lesson
 * coverage commit one after another. Updates that change no topic_learning
 * row (the search index rewriting topics) do not raise it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE topic_learning_versions (
    org_id text PRIMARY KEY,
    version bigint NOT NULL
  )`

  // PL/pgSQL plans a statement when it first runs, so each event names only the transition table it has.
  for (const [event, rows] of [["insert", "new_rows"], ["update", "new_rows"], ["delete", "old_rows"]] as const) {
    yield* sql.unsafe(`CREATE FUNCTION topic_learning_bump_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Sorted, so that two statements bumping several organizations take the row locks in one order.
        INSERT INTO topic_learning_versions AS v (org_id, version)
        SELECT DISTINCT org_id, 1 FROM ${rows} ORDER BY org_id
        ON CONFLICT (org_id) DO UPDATE SET version = v.version + 1;
        RETURN NULL;
      END
    $$`)
    const referencing = event === "update"
      ? "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows"
      : `REFERENCING ${event === "insert" ? "NEW" : "OLD"} TABLE AS ${rows}`
    yield* sql.unsafe(`CREATE TRIGGER topic_learning_version_${event} AFTER ${event.toUpperCase()} ON topic_learning
      ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION topic_learning_bump_${event}()`)
  }

  yield* sql`INSERT INTO topic_learning_versions (org_id, version) SELECT DISTINCT org_id, 1 FROM topic_learning`
})
