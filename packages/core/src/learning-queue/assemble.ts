import { queueCandidates } from "./candidates.js"
import { factRows, type QueueFactRow } from "./fact-rows.js"
import type { PersonQueueRow } from "./person-queue-repo.js"
import type { TopicGraphSnapshot } from "./topic-graph.js"

export type { QueueFactRow } from "./fact-rows.js"

/**
 * Every candidate entry of a person's queue with all it shows: the
 * candidates (candidates.ts) each made a row (fact-rows.ts). The service
 * ranks the candidates and makes rows for a page's entries only; this is
 * the whole queue's worth, in the candidates' order.
 */
export const assembleQueue = (graph: TopicGraphSnapshot, person: PersonQueueRow): ReadonlyArray<QueueFactRow> =>
  factRows(graph, person, queueCandidates(graph, person))
