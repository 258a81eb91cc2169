import type { FastifyInstance } from "fastify"
import { durationOf, titleQueryWords } from "@tks/domain/content"
import type { EntityType } from "@tks/domain/duty"
import { policies } from "@tks/domain/policies"
import { renderSnippet, searchDefaultLimit } from "@tks/domain/search"
import { authenticate, type Context, HttpError, isStringPair, limitOf, pageOf, positionOf, queryOf, readerOf } from "./context.js"
import { roleExists, rolePage } from "./statements/company-roles.js"
import { contentPage } from "./statements/content.js"
import { dutyPage } from "./statements/holder-duties.js"
import { fullText, nearSpellings } from "./statements/search.js"

const entityCollection: Record<EntityType, string> = { TOPIC: "topics", ITEM: "items", SPACE: "spaces", CATEGORY: "categories" }
const entityTypes = new Set<string>(["TOPIC", "ITEM", "SPACE", "CATEGORY"])

const isDutyKey = (key: unknown): boolean =>
  Array.isArray(key) && key.length === 6 && [0, 3].every((i) => Number.isInteger(key[i]) && key[i] >= 0 && key[i] <= 3) &&
  [1, 2, 4, 5].every((i) => typeof key[i] === "string")

const isTimeKey = (key: unknown): boolean =>
  isStringPair(key) && /^-?\d{1,18}$/.test((key as Array<string>)[0]!) && (key as Array<string>)[1]!.length <= 100

/** GET /v1/company-roles, GET /v1/company-roles/{id}/duties, GET /v1/content, GET /v1/search. */
export const knowledgeRoutes = (app: FastifyInstance, ctx: Context) => {
  app.get("/v1/company-roles", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.companyRoles.list)
    const params = queryOf(request)
    const orgId = actor.organizationId
    const query = params["query"] === undefined || params["query"] === "" ? null : params["query"]
    const listing = JSON.stringify(["company-roles", orgId, query])
    const limit = limitOf(params["limit"])
    const at = positionOf(ctx, listing, params["cursor"], isStringPair)
    const rows = await ctx.db.query(rolePage({ orgId, query, after: at === null ? null : at.k, limit: limit + 1 }))
    return pageOf(ctx, listing, rows, limit, (row) => [row.sort_name, row.id], (row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      memberCount: row.member_count,
      parentRoleId: row.parent_role_id,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString()
    }), null)
  })

  app.get<{ Params: { id: string } }>("/v1/company-roles/:id/duties", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.companyRoles.duties)
    const params = queryOf(request)
    const { organizationId: orgId, userId } = actor
    const roleId = request.params.id
    const entityType = (params["entityType"] ?? null) as EntityType | null
    if (entityType !== null && !entityTypes.has(entityType)) throw new HttpError(400, "Unknown entityType")
    const limit = limitOf(params["limit"])
    if ((await ctx.db.query(roleExists(orgId, roleId))).length === 0) throw new HttpError(404, "No such company role")
    const listing = JSON.stringify(["company-role-duties", orgId, roleId, userId, entityType])
    const at = positionOf(ctx, listing, params["cursor"], isDutyKey)
    const statement = dutyPage({
      orgId,
      holder: { type: "role", id: roleId },
      reader: readerOf(actor),
      entityType,
      after: at === null ? null : at.k,
      limit: limit + 1
    })
    const rows = statement === null ? [] : await ctx.db.query(statement)
    // The wire order: advancementTierId (present only for a tier-qualified duty) before advancementTierLabel.
    return pageOf(ctx, listing, rows, limit, (row) => [row.type_ord, row.sort_name, row.entity_id, row.raci_ord, row.inherited_key, row.duty_id], (row) => ({
      role: row.raci,
      entityType: row.entity_type,
      entityId: row.entity_id,
      entityName: row.entity_name,
      inheritedFrom: row.inherited_type === null || row.inherited_id === null
        ? null
        : { entityType: row.inherited_type, entityId: row.inherited_id },
      tierQualifier: row.tier_qualifier,
      ...(row.tier_qualifier === "ALL" || row.tier_id === null ? {} : { advancementTierId: row.tier_id }),
      advancementTierLabel: row.tier_qualifier === "ALL" ? null : row.tier_label,
      url: ctx.link(entityCollection[row.entity_type as EntityType], row.entity_id)
    }), null)
  })

  app.get("/v1/content", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.content.list)
    const params = queryOf(request)
    const { organizationId: orgId, userId } = actor
    const words = titleQueryWords(params["query"])
    const type = params["type"] ?? null
    const listing = JSON.stringify(["content", orgId, userId, type, words])
    const limit = limitOf(params["limit"])
    const at = positionOf(ctx, listing, params["cursor"], isTimeKey)
    const rows = await ctx.db.query(contentPage({ orgId, reader: readerOf(actor), type, words, after: at === null ? null : at.k, limit: limit + 1 }))
    return pageOf(ctx, listing, rows, limit, (row) => [row.created_us, row.id], (row) => ({
      id: row.id,
      title: row.title,
      type: row.type,
      summary: row.summary,
      durationSeconds: durationOf(row.type, row.duration_seconds),
      url: ctx.link("content", row.id),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString()
    }), null)
  })

  // Search.search: full-text matches first; near spellings fill what they leave of the page.
  app.get("/v1/search", async (request) => {
    const { actor } = await authenticate(ctx, request, policies.search.query)
    const params = queryOf(request)
    const text = (params["query"] ?? "").trim()
    if (text === "" || text.length > 500) throw new HttpError(400, "query must be 1 to 500 characters")
    const types = params["types"] === undefined ? ["topic", "chapter"] : params["types"].split(",")
    const input = {
      orgId: actor.organizationId,
      reader: readerOf(actor),
      text,
      topics: types.includes("topic"),
      chapters: types.includes("chapter"),
      limit: limitOf(params["limit"], 50, searchDefaultLimit)
    }
    const view = (row: any, score: number) => {
      const base = { id: row.id, title: row.title, snippet: renderSnippet(row.raw_snippet), score }
      if (row.type === "topic") return { type: "topic", ...base, url: ctx.link("topics", row.id) }
      const contentId = row.content_id ?? ""
      const sequence = row.sequence ?? 1
      return {
        type: "chapter",
        ...base,
        url: `${ctx.link("content", contentId)}#chapter-${sequence}`,
        contentId,
        contentTitle: row.content_title ?? "",
        sequence
      }
    }
    const matches = await ctx.db.query(fullText(input))
    const data = matches.map((row) => view(row, 0.5 + row.relevance / 2))
    if (matches.length < input.limit) {
      const idsOf = (type: string) => matches.filter((row) => row.type === type).map((row) => row.id)
      const near = await ctx.db.query(nearSpellings({ ...input, limit: input.limit - matches.length }, { topics: idsOf("topic"), chapters: idsOf("chapter") }))
      data.push(...near.map((row) => view(row, row.relevance / 2)))
    }
    return { data, nextCursor: null }
  })
}
