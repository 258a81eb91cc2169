import { SqlClient } from "@effect/sql"
import { Cache, Duration, Effect, Exit } from "effect"
import { snapshotOf, type TopicRow } from "./topic-graph.js"

/** Organizations whose graphs one process keeps; the least recently read goes first. */
const CAPACITY = 64

/**
 * Each organization's topic graph (its `topic_learning` rows) kept in memory
 * per committed version (`topic_learning_versions`, migration 0012, raised
 * by every statement that changes those rows), so that a learning queue
 * reads only the person's own rows on each request and the graph once per
 * change: on the issue 8 bench the graph part was about half of the queue
 * statement's time. A reader names the version its own statement saw; a
 * version not held yet is read whole, once however many ask at the same
 * time, in one statement so the rows and the version agree.
 */
export class TopicGraph extends Effect.Service<TopicGraph>()("@tks/core/TopicGraph", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const load = (orgId: string) =>
      sql<{ version: string; topics: ReadonlyArray<TopicRow> | null }>`
        SELECT COALESCE((SELECT v.version FROM topic_learning_versions v WHERE v.org_id = ${orgId}), 0)::text AS version,
          (SELECT json_agg(json_build_array(t.topic_id, t.space_id, t.name, t.live, t.lesson_ids,
              -- Each prerequisite as [id, name, space_id, live] (migration 0011), with lower(name) added.
              (SELECT COALESCE(json_agg(json_build_array(p ->> 0, p ->> 1, p ->> 2, p -> 3, lower(p ->> 1))), '[]')
                FROM jsonb_array_elements(t.prerequisites) p)))
            FROM topic_learning t WHERE t.org_id = ${orgId}) AS topics`.pipe(
        Effect.map(([row]) => snapshotOf(row!.version, row!.topics ?? [])),
        Effect.withSpan("TopicGraph.load", { attributes: { "tks.organization_id": orgId } })
      )

    // A failed read is not kept: the next request tries again. Lookups run with this layer's context, never
    // inside a caller's transaction, so a copy only ever holds committed rows.
    const cache = yield* Cache.makeWith({
      capacity: CAPACITY,
      lookup: load,
      timeToLive: (exit) => Exit.isSuccess(exit) ? Duration.infinity : Duration.zero
    })

    /** The graph of `orgId` at `version` or a later one (it may have changed again while it was read). */
    const at = (orgId: string, version: string) =>
      Effect.gen(function*() {
        const held = yield* cache.get(orgId)
        if (BigInt(held.version) >= BigInt(version)) return held
        yield* cache.invalidate(orgId)
        return yield* cache.get(orgId)
      })

    return { at } as const
  })
}) {}
