import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { MemberStatus } from "@tks/domain/roles"
import { type PersonQueueRow, personQueueRows, type QueueInput } from "./person-queue-repo.js"
import type { TopicGraphSnapshot } from "./topic-graph.js"
import { TopicGraph } from "./topic-graph-repo.js"
import { direct } from "@tks/db/direct"

export type { QueueFactRow } from "./fact-rows.js"

/** What a person's queue is made from: their own rows and their organization's topic graph at the version those rows saw. */
interface QueueSources {
  readonly person: PersonQueueRow
  readonly graph: TopicGraphSnapshot
}

/** The person whose queue is read, and whether the reader manages them at any depth of the reporting line. */
interface QueuePersonRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly status: MemberStatus
  readonly managed_by_reader: boolean
}

export class LearningQueueRepo extends Effect.Service<LearningQueueRepo>()("@tks/core/LearningQueueRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const graphs = yield* TopicGraph

    /** The person (any status), and whether `readerId` is one of their managers, directly or further up the line. */
    const person = (orgId: string, personId: string, readerId: string) =>
      sql<QueuePersonRow>`
        WITH RECURSIVE line (manager_id) AS (
          SELECT u.manager_id FROM users u WHERE u.org_id = ${orgId} AND u.id = ${personId} AND u.manager_id IS NOT NULL
          UNION
          SELECT m.manager_id FROM line JOIN users m ON m.org_id = ${orgId} AND m.id = line.manager_id
          WHERE m.manager_id IS NOT NULL
        )
        SELECT u.id, u.name, u.email, u.status, EXISTS (SELECT 1 FROM line WHERE line.manager_id = ${readerId}) AS managed_by_reader
        FROM users u WHERE u.org_id = ${orgId} AND u.id = ${personId}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * What `userId`'s queue as `reader` sees it at `now` is made from: the person's rows
     * (person-queue-repo.ts) and the organization's topic graph at the version they saw (topic-graph-repo.ts).
     */
    const sources = (input: QueueInput): Effect.Effect<QueueSources, SqlError> =>
      Effect.flatMap(direct(sql, personQueueRows(sql, input)), ([person]) =>
        Effect.map(graphs.at(input.orgId, person!.graph_version), (graph): QueueSources => ({ person: person!, graph })))

    return { person, sources } as const
  }),
  dependencies: [TopicGraph.Default]
}) {}
