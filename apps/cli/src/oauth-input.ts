import { Either } from "effect"
import { providerScopeProblem, type ScopeMap } from "@tks/domain/oauth"
import type { Scope } from "@tks/domain/roles"
import { parseScopes } from "./token-input.js"

/**
 * `--scope PROVIDER_SCOPE=ours[,ours]`, once per provider scope: the map
 * from the identity provider's scopes to ours. No entry: undefined (the
 * default, each of our scope names granting itself). A provider scope named
 * twice adds up.
 */
export const parseScopeMap = (entries: ReadonlyArray<string>): Either.Either<ScopeMap | undefined, string> => {
  if (entries.length === 0) return Either.right(undefined)
  const map: Record<string, readonly [Scope, ...Array<Scope>]> = {}
  for (const entry of entries) {
    const equals = entry.lastIndexOf("=")
    if (equals <= 0) return Either.left(`--scope "${entry}" is not PROVIDER_SCOPE=scope[,scope] (for example api://tks/assign=training:assign)`)
    const name = entry.slice(0, equals).trim()
    const problem = providerScopeProblem(name)
    if (problem !== undefined) return Either.left(`--scope: ${problem}`)
    const ours = parseScopes(entry.slice(equals + 1))
    if (Either.isLeft(ours)) return Either.left(`--scope "${entry}": ${ours.left}`)
    const [first, ...rest] = [...new Set([...(map[name] ?? []), ...ours.right])]
    if (first === undefined) return Either.left(`--scope "${entry}" grants none of our scopes`)
    map[name] = [first, ...rest]
  }
  return Either.right(map)
}
