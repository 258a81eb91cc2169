import { COMMON_WORD, SELECTIVE_WORD, TYPO_QUERY } from "./library-fixture.js"

/**
 * The hot endpoints of the side-by-side bench (issue 19), as both servers
 * are called: the same path, the same token. `kind` picks the targets a
 * cell is held to: /health has its own; the others read the database.
 */
export interface HotEndpoint {
  readonly label: string
  readonly path: string
  /** null: no Authorization header. */
  readonly token: string | null
  readonly kind: "health" | "database"
  /** Tokens to rotate through instead of `token` (the learning queue's own limit is 20 a minute per token). */
  readonly tokens?: ReadonlyArray<string>
}

export interface HotCallers {
  /** An organization admin of the large organization (p1). */
  readonly admin: string
  /** The learning-queue learner (1,000 duties): obligations, enrollments and the queue. */
  readonly learner: string
  /** Extra tokens of the learner for the queue under load; the learner's own token when absent. */
  readonly learnerTokens?: ReadonlyArray<string>
  /** A company role with duties (r7). */
  readonly roleId: string
  /** nextCursor of the members listing's page `laterPage - 1` (limit 50). */
  readonly membersCursor: string
  readonly laterPage: number
}

export const PAGE = 50

export const hotEndpoints = (c: HotCallers): ReadonlyArray<HotEndpoint> => {
  const db = (label: string, path: string, token = c.admin): HotEndpoint => ({ label, path, token, kind: "database" })
  return [
    { label: "/health", path: "/health", token: null, kind: "health" },
    db("/v1/me", "/v1/me"),
    db("members page 1", `/v1/members?limit=${PAGE}`),
    db(`members page ${c.laterPage}`, `/v1/members?limit=${PAGE}&cursor=${encodeURIComponent(c.membersCursor)}`),
    db("members query=\"person 1\"", `/v1/members?query=${encodeURIComponent("person 1")}&limit=${PAGE}`),
    db("company-roles", `/v1/company-roles?limit=${PAGE}`),
    db("role duties", `/v1/company-roles/${c.roleId}/duties?limit=${PAGE}`),
    db("content", `/v1/content?limit=${PAGE}`),
    db(`search rare "${SELECTIVE_WORD}"`, `/v1/search?query=${encodeURIComponent(SELECTIVE_WORD)}&limit=10`),
    db(`search common "${COMMON_WORD}"`, `/v1/search?query=${encodeURIComponent(COMMON_WORD)}&limit=10`),
    db(`search typo "${TYPO_QUERY}"`, `/v1/search?query=${encodeURIComponent(TYPO_QUERY)}&limit=10`),
    db("own obligations", "/v1/me/obligations", c.learner),
    { ...db("learning queue", `/v1/me/learning-queue?limit=${PAGE}`, c.learner), tokens: c.learnerTokens ?? [c.learner] },
    db("/v1/me/enrollments", "/v1/me/enrollments", c.learner)
  ]
}

/** The nextCursor of page `page` of a listing (limit PAGE), walked over HTTP; fails when the listing ends first. */
export const cursorAfterPage = async (base: string, path: string, token: string, page: number): Promise<string> => {
  let cursor: string | null = null
  for (let n = 1; n <= page; n++) {
    const query: string = `limit=${PAGE}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    const response: Response = await fetch(`${base}${path}?${query}`, { headers: { authorization: `Bearer ${token}` } })
    const body = (await response.json()) as { nextCursor: string | null }
    if (response.status !== 200 || body.nextCursor === null) throw new Error(`${path} has no page ${n + 1} (answered ${response.status})`)
    cursor = body.nextCursor
  }
  return cursor!
}
