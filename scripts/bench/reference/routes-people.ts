import type { FastifyInstance } from "fastify"
import { memberView } from "@tks/core/members/views"
import { policies } from "@tks/domain/policies"
import { authenticate, type Context, HttpError, isStringPair, limitOf, pageOf, positionOf, queryOf } from "./context.js"
import { findMe } from "./statements/me.js"
import { memberCount, memberPage, type PeopleFilter } from "./statements/members.js"
import { enrollments, obligations } from "./statements/training.js"

/** The row memberView shapes (the members repo's MemberRow). */
type MemberRow = Parameters<typeof memberView>[0]

const iso = (date: Date) => date.toISOString()
const isoOrNull = (date: Date | null) => (date === null ? null : date.toISOString())

/** GET /v1/me, GET /v1/members, GET /v1/me/obligations, GET /v1/me/enrollments. */
export const peopleRoutes = (app: FastifyInstance, ctx: Context) => {
  app.get("/v1/me", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.me.get)
    const [row] = await ctx.db.query(findMe(actor.organizationId, actor.userId))
    if (row === undefined) throw new HttpError(401, "The token's owner no longer exists")
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      organization: { id: row.org_id, name: row.org_name },
      role: row.org_role,
      teams: row.teams,
      scopes: actor.scopes
    }
  })

  // Members.list with Pagination.counted: the first page counts beside its rows; later pages carry the total in the cursor.
  app.get("/v1/members", async (request) => {
    const access = await authenticate(ctx, request, policies.members.list)
    const params = queryOf(request)
    const everyone = access.reach === "organization"
    if (params["noManager"] !== undefined && !everyone) throw new HttpError(403, "Only organization admins may filter by noManager")
    const status = params["status"] ?? "active"
    if (status !== "active" && status !== "deactivated" && status !== "all") throw new HttpError(400, "status must be active, deactivated or all")
    const filter: PeopleFilter = {
      orgId: access.actor.organizationId,
      status,
      onlyUserId: everyone ? null : access.actor.userId,
      query: params["query"] ?? null,
      teamId: params["teamId"] ?? null,
      noManager: params["noManager"] === "true"
    }
    const listing = JSON.stringify(["members", filter])
    const limit = limitOf(params["limit"])
    const at = positionOf(ctx, listing, params["cursor"], isStringPair)
    const fetch = () => ctx.db.query<MemberRow>(memberPage(filter, at === null ? null : at.k, limit + 1))
    let rows: Array<MemberRow>
    let total: number
    if (at !== null && at.t !== null) {
      rows = await fetch()
      total = at.t
    } else {
      const [page, [count]] = await Promise.all([fetch(), ctx.db.query<{ total: number; team_known: boolean }>(memberCount(filter))])
      if (count === undefined || !count.team_known) throw new HttpError(400, "Unknown teamId")
      rows = page
      total = count.total
    }
    const page = pageOf(ctx, listing, rows, limit, (row) => [row.sort_name, row.id], (row) => memberView(row, everyone), total)
    return { ...page, total }
  })

  const itemCollection = { lesson: "lessons", topic: "topics", item: "items" } as const

  app.get("/v1/me/obligations", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.training.myObligations)
    const rows = await ctx.db.query(obligations(actor.organizationId, actor.userId))
    const data = rows.map((row) => ({
      id: row.id,
      itemType: row.item_type,
      itemId: row.item_id,
      itemName: row.item_name,
      required: row.required,
      status: row.status,
      dueDate: isoOrNull(row.due_date),
      overdue: row.overdue,
      url: ctx.link(itemCollection[row.item_type as keyof typeof itemCollection], row.item_id),
      createdAt: iso(row.created_at)
    }))
    return { data, nextCursor: null }
  })

  app.get("/v1/me/enrollments", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.training.myEnrollments)
    const rows = await ctx.db.query(enrollments(actor.organizationId, actor.userId))
    const data = rows.map((row) => ({
      id: row.id,
      itemId: row.lesson_id,
      title: row.title,
      status: row.status,
      completedAt: isoOrNull(row.completed_at),
      ...(row.score === null ? {} : { score: row.score }),
      dueDate: isoOrNull(row.due_date),
      url: ctx.link("lessons", row.lesson_id),
      enrolledAt: iso(row.enrolled_at)
    }))
    return { data, nextCursor: null }
  })
}
