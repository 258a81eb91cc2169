import type { FastifyInstance } from "fastify"
import { queueCandidates } from "@tks/core/learning-queue/candidates"
import { factRows, type QueueFactRow, roleNameOf } from "@tks/core/learning-queue/fact-rows"
import { snapshotOf, type TopicGraphSnapshot, type TopicRow } from "@tks/core/learning-queue/topic-graph"
import { rateLimitSubject } from "@tks/domain/actor"
import type { QueueRankKey } from "@tks/domain/learning-queue"
import { rankPage } from "@tks/domain/learning-queue-page"
import { policies } from "@tks/domain/policies"
import { authenticate, type Context, HttpError, limitOf, pageOf, positionOf, queryOf, readerOf } from "./context.js"
import { consume } from "./statements/auth.js"
import { personQueueRows, topicGraph } from "./statements/learning-queue.js"

const isRankKey = (key: unknown): boolean =>
  Array.isArray(key) && key.length === 7 && key.slice(0, 5).every((n) => Number.isSafeInteger(n)) &&
  typeof key[5] === "string" && typeof key[6] === "string"

/**
 * GET /v1/me/learning-queue (LearningQueue.mine): the per-token count of the
 * queue reads, the person's rows, the organization's topic graph from
 * memory (read again when the person's statement saw a newer version), and
 * the domain's ranking; a page cut after the cursor's rank key.
 */
export const queueRoutes = (app: FastifyInstance, ctx: Context) => {
  const graphs = new Map<string, Promise<TopicGraphSnapshot>>()
  const load = (orgId: string) => {
    const loading = ctx.db.query<{ version: string; topics: Array<TopicRow> | null }>(topicGraph(orgId))
      .then(([row]) => snapshotOf(row!.version, row!.topics ?? []))
    graphs.set(orgId, loading)
    loading.catch(() => graphs.delete(orgId))
    return loading
  }
  const graphAt = async (orgId: string, version: string) => {
    const held = await (graphs.get(orgId) ?? load(orgId))
    return BigInt(held.version) >= BigInt(version) ? held : load(orgId)
  }

  app.get("/v1/me/learning-queue", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.training.myLearningQueue)
    const params = queryOf(request)
    const orgId = actor.organizationId
    const [counted] = await ctx.db.query<{ refused: boolean }>(consume(orgId, "learning-queue", rateLimitSubject(actor), [{ seconds: 60, limit: 20 }], 1))
    if (counted?.refused !== false) throw new HttpError(429, "Too many requests; retry later")
    const now = Date.now()
    const listing = JSON.stringify(["learning-queue", orgId, actor.userId, actor.userId])
    const limit = limitOf(params["limit"])
    const at = positionOf(ctx, listing, params["cursor"], isRankKey)
    const [person] = await ctx.db.query(personQueueRows({ orgId, userId: actor.userId, reader: readerOf(actor), now: new Date(now) }))
    const graph = await graphAt(orgId, person.graph_version)
    // The pure ranking and row building the service runs: the page's entries only (and one more, for nextCursor).
    const ranked = rankPage(queueCandidates(graph, person), now, at === null ? null : at.k as QueueRankKey, limit + 1)
    const facts = factRows(graph, person, ranked.entries.map((entry) => entry.candidate))
    const rows = ranked.entries.map((entry, i) => ({ ...entry, row: facts[i]! as QueueFactRow }))
    const page = pageOf(ctx, listing, rows, limit, (entry) => entry.key, ({ candidate, priority, row, type }) => ({
      topicId: row.kind === "topic" ? row.id : null,
      topicName: row.name,
      type,
      priority,
      raciRole: candidate.raci,
      roleName: roleNameOf(row),
      dueDate: row.due_date === null ? null : row.due_date.toISOString(),
      overdue: candidate.dueAtMs !== null && candidate.dueAtMs < now,
      lessonId: row.lesson_id,
      blocked: row.blocked,
      blockingPrerequisiteName: row.blocking_name,
      url: ctx.link(row.kind === "topic" ? "topics" : "lessons", row.id)
    }), null)
    return { ...page, total: ranked.total }
  })
}
