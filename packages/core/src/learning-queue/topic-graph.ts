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
