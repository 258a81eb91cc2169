import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { Access } from "@tks/domain/policy"
import type { MemberStatus } from "@tks/domain/roles"
import { withinReach } from "../common/reach.js"
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

/** The person whose queue is read, and whether they are within the caller's reach. */
interface QueuePersonRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly status: MemberStatus
  readonly in_reach: boolean
}

export class LearningQueueRepo extends Effect.Service<LearningQueueRepo>()("@tks/core/LearningQueueRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const graphs = yield* TopicGraph

    /** The person of the caller's organization (any status), and whether they are within the caller's reach (common/reach.ts). */
    const person = (access: Access, personId: string) =>
      sql<QueuePersonRow>`
        SELECT u.id, u.name, u.email, u.status, ${withinReach(sql, access, "u")} AS in_reach
        FROM users u WHERE u.org_id = ${access.actor.organizationId} AND u.id = ${personId}`.pipe(Effect.map((rows) => rows[0]))

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
