import { createHash } from "node:crypto"
import type { FastifyRequest } from "fastify"
import type { Actor } from "@tks/domain/actor"
import { parseBearer } from "@tks/domain/bearer"
import { authorize, isAccess, type Access, type Policy } from "@tks/domain/policy"
import type { Cursors } from "./cursors.js"
import type { Database } from "./db.js"
import { findLiveToken } from "./statements/auth.js"
import type { Reader } from "./statements/access.js"

/** What every route handler of the reference uses. */
export interface Context {
  readonly db: Database
  readonly cursors: Cursors
  /** The server's links (its Links service): `${publicUrl}/v1/<collection>/<id>`. */
  readonly link: (collection: string, id: string) => string
  /** RATE_LIMIT_PER_MINUTE: the per-token limit the token check counts against. */
  readonly requestsPerMinute: number
}

/** A non-200 answer; the reference's error bodies are not the server's (only the 200 paths are compared). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

export const defaultLimit = 50

/** `limit` as the contract takes it: 1 to `max`, digits only; `fallback` when absent. */
export const limitOf = (text: string | undefined, max = 100, fallback = defaultLimit): number => {
  if (text === undefined) return fallback
  const limit = /^[1-9][0-9]{0,2}$/.test(text) ? Number(text) : 0
  if (limit < 1 || limit > max) throw new HttpError(400, `limit must be an integer from 1 to ${max}`)
  return limit
}

const tokenRejected = () => new HttpError(401, "The bearer token is missing, invalid, expired or revoked")

/**
 * The server's token check (Authenticator.authenticateRequest): the token's
 * owner as they are now, the request counted against the token's limit in
 * the same statement, its use recorded to the minute; then the route's
 * declared policy (the same pure `authorize` the server runs).
 */
export const authenticate = async (ctx: Context, request: FastifyRequest, policy: Policy): Promise<Access> => {
  const token = parseBearer(request.headers.authorization) ?? ""
  if (token.length === 0 || token.length > 200) throw tokenRejected()
  const hash = createHash("sha256").update(token).digest("hex")
  const [row] = await ctx.db.query<{
    token_id: string
    org_id: string
    user_id: string
    org_role: Actor["role"]
    scopes: Actor["scopes"]
    teams: Actor["teams"]
    refused: boolean
  }>(findLiveToken(hash, "requests", [{ seconds: 60, limit: ctx.requestsPerMinute }]))
  if (row === undefined) throw tokenRejected()
  if (row.refused) throw new HttpError(429, "Too many requests for this access token")
  const actor = {
    organizationId: row.org_id,
    userId: row.user_id,
    role: row.org_role,
    teams: row.teams,
    scopes: row.scopes,
    tokenId: row.token_id
  } as unknown as Actor
  const access = authorize(actor, policy)
  if (!isAccess(access)) throw new HttpError(access._tag === "NotFound" ? 404 : 403, access.message)
  return access
}

export const readerOf = (actor: Actor): Reader => ({ role: actor.role, teamIds: actor.teams.map((team) => team.teamId) })

export type Query = Record<string, string | undefined>

export const queryOf = (request: FastifyRequest): Query => request.query as Query

/** One page cut from `rows` (fetched with one extra row), with the next cursor (Pagination.walk's pageOf). */
export const pageOf = <Row, Out>(
  ctx: Context,
  listing: string,
  rows: ReadonlyArray<Row>,
  limit: number,
  keyOf: (row: Row) => unknown,
  view: (row: Row) => Out,
  total: number | null
) => {
  const page = rows.length > limit ? rows.slice(0, limit) : rows
  const last = page[page.length - 1]
  return {
    data: page.map(view),
    nextCursor: rows.length > limit && last !== undefined ? ctx.cursors.encode(listing, { k: keyOf(last), t: total }) : null
  }
}

/** The cursor's position for `listing`, or null without one; 400 for a cursor another listing wrote or a forged one. */
export const positionOf = (ctx: Context, listing: string, cursor: string | undefined, validKey: (key: unknown) => boolean) => {
  if (cursor === undefined) return null
  const decoded = ctx.cursors.decode(listing, cursor)
  const total = decoded?.t
  if (decoded === undefined || !validKey(decoded.k) || !(total === null || (Number.isSafeInteger(total) && (total as number) >= 0))) {
    throw new HttpError(400, "Invalid cursor")
  }
  return decoded as { readonly k: any; readonly t: number | null }
}

export const isStringPair = (key: unknown): boolean =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === "string" && typeof key[1] === "string"
