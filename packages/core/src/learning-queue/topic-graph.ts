import { SqlClient } from "@effect/sql"
import { Cache, Duration, Effect, Exit } from "effect"

/** A prerequisite of a topic, as `topic_learning.prerequisites` holds it. */
export interface Prerequisite {
  readonly id: string
  readonly name: string
  readonly spaceId: string
  readonly live: boolean
  /** `lower(name)` as PostgreSQL computes it: prerequisites are ordered by it. */
  readonly nameLower: string
}

/** What the learning queue needs of one topic (one `topic_learning` row, migration 0011). */
export interface TopicNode {
  readonly id: string
  readonly name: string
  readonly spaceId: string
  readonly live: boolean
  /** The lessons covering it (lesson_topics), by id. */
  readonly lessonIds: ReadonlyArray<string>
  readonly prerequisites: ReadonlyArray<Prerequisite>
}

/** An organization's topics as the learning queue reads them, at one committed version. */
export interface TopicGraphSnapshot {
  readonly version: string
  readonly topics: ReadonlyMap<string, TopicNode>
  /** Each lesson's topics (the inverse of `lessonIds`: the lesson_topics rows). */
  readonly lessonTopics: ReadonlyMap<string, ReadonlyArray<string>>
}

/** One topic as the graph statement returns it. */
export type TopicRow = readonly [
  id: string,
  spaceId: string,
  name: string,
  live: boolean,
  lessonIds: ReadonlyArray<string>,
  prerequisites: ReadonlyArray<readonly [id: string, name: string, spaceId: string, live: boolean, nameLower: string]>
]

/** The snapshot of a graph statement's rows (pure: the bench's reference server builds it the same way). */
export const snapshotOf = (version: string, rows: ReadonlyArray<TopicRow>): TopicGraphSnapshot => {
  const topics = new Map<string, TopicNode>()
  const lessonTopics = new Map<string, Array<string>>()
  for (const [id, spaceId, name, live, lessonIds, prerequisites] of rows) {
    topics.set(id, {
      id,
      name,
      spaceId,
      live,
      lessonIds,
      prerequisites: prerequisites.map(([pid, pname, pspace, plive, plower]) => ({ id: pid, name: pname, spaceId: pspace, live: plive, nameLower: plower }))
    })
    for (const lessonId of lessonIds) {
      const covered = lessonTopics.get(lessonId)
      if (covered === undefined) lessonTopics.set(lessonId, [id])
      else covered.push(id)
    }
  }
  return { version, topics, lessonTopics }
}

const NO_TOPICS: ReadonlyArray<string> = []
const bySpace = new WeakMap<TopicGraphSnapshot, ReadonlyMap<string, ReadonlyArray<string>>>()

/**
 * The topics of a space in `graph`, whatever their state (as a duty on the
 * space reaches them), from an index built once per snapshot.
 */
export const topicsInSpace = (graph: TopicGraphSnapshot, spaceId: string): ReadonlyArray<string> => {
  let index = bySpace.get(graph)
  if (index === undefined) {
    const built = new Map<string, Array<string>>()
    for (const topic of graph.topics.values()) {
      const held = built.get(topic.spaceId)
      if (held === undefined) built.set(topic.spaceId, [topic.id])
      else held.push(topic.id)
    }
    bySpace.set(graph, built)
    index = built
  }
  return index.get(spaceId) ?? NO_TOPICS
}

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
