import type { Actor } from "@tks/domain/actor"
import type { Scope } from "@tks/domain/roles"

/** The scope a tool's policy needs, by tool name (null: none; undefined: no such tool). */
export type ScopeOfTool = (name: string) => Scope | null | undefined

/**
 * The first scope that a request's `tools/call` messages need and the
 * caller lacks, or undefined: read from the JSON-RPC body before MCP runs,
 * so an organization's resource can refuse at the HTTP level (403
 * insufficient_scope, which an OAuth client answers by asking for the
 * scope) instead of as a tool error. A body of several messages is read
 * message by message; anything that is not a tools/call passes.
 */
export const lackedScope = (actor: Actor, body: unknown, scopeOf: ScopeOfTool): Scope | undefined => {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null) continue
    const { method, params } = message as { readonly method?: unknown; readonly params?: { readonly name?: unknown } }
    if (method !== "tools/call" || typeof params?.name !== "string") continue
    const scope = scopeOf(params.name)
    if (scope !== null && scope !== undefined && !actor.scopes.includes(scope)) return scope
  }
  return undefined
}
