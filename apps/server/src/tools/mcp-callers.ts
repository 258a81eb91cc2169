import type { Headers } from "@effect/platform"
import { HttpServerResponse } from "@effect/platform"
import { Effect, Either } from "effect"
import type { ToolCallers } from "@tks/mcp/authorization"
import type { ToolError } from "@tks/mcp/contract/tool"
import type { Actor } from "@tks/domain/actor"
import { parseBearer, resourceChallenge } from "@tks/domain/bearer"
import type { OrganizationId } from "@tks/domain/ids"
import { errorResponse } from "../http/error-response.js"
import { refusal } from "./refusal.js"

/**
 * Who may speak MCP on /mcp and on an organization's own resource,
 * /mcp/{organizationId} (docs/mcp-oauth.md), apart from the route, which
 * only asks:
 *
 * - `admit`: the caller as they are now, or the answer refusing them. On
 *   /mcp only this service's access tokens sign in; on an organization's
 *   resource, its access tokens or its identity provider's, and a 401
 *   names the resource's metadata and scopes in `WWW-Authenticate` (the
 *   edge keeps it; elsewhere it adds plain `Bearer`).
 * - `checkScope`: on an organization's resource, a request calling a tool
 *   whose scope the caller lacks is 403 INSUFFICIENT_SCOPE with
 *   `WWW-Authenticate: Bearer error="insufficient_scope"`, so an OAuth
 *   client can ask its provider for the scope; on /mcp it stays the tool's
 *   own refusal (a tool error).
 */
export const mcpCallers = (callers: ToolCallers) => {
  const challenged = (
    organizationId: OrganizationId,
    response: HttpServerResponse.HttpServerResponse,
    header: (challenge: Effect.Effect.Success<ReturnType<ToolCallers["challengeOf"]>>) => string
  ) =>
    Effect.map(Effect.either(callers.challengeOf(organizationId)), (challenge) =>
      // Without the organization's figures (the database away), the answer stands as it is.
      Either.isLeft(challenge) ? response : HttpServerResponse.setHeader(response, "www-authenticate", header(challenge.right)))

  const refused = (headers: Headers.Headers, organizationId: OrganizationId | undefined) => (error: ToolError) =>
    Effect.flatMap(refusal(error), (response) =>
      error._tag !== "Unauthorized" || organizationId === undefined
        ? Effect.succeed(response)
        : challenged(organizationId, response, (challenge) =>
          resourceChallenge({
            error: parseBearer(headers.authorization) === undefined ? undefined : "invalid_token",
            resourceMetadata: challenge.resourceMetadata,
            scopes: challenge.scopesSupported
          })))

  const admit = (
    headers: Headers.Headers,
    organizationId: OrganizationId | undefined
  ): Effect.Effect<Actor, HttpServerResponse.HttpServerResponse> =>
    (organizationId === undefined ? callers.authenticate(headers) : callers.authenticateAt(headers, organizationId)).pipe(
      Effect.catchAll((error) => Effect.flip(refused(headers, organizationId)(error)))
    )

  const checkScope = (
    actor: Actor,
    body: unknown,
    organizationId: OrganizationId | undefined
  ): Effect.Effect<void, HttpServerResponse.HttpServerResponse> => {
    const scope = organizationId === undefined ? undefined : callers.scopeLacked(actor, body)
    if (organizationId === undefined || scope === undefined) return Effect.void
    const response = errorResponse(403, {
      _tag: "Forbidden",
      code: "INSUFFICIENT_SCOPE",
      message: `This token lacks the ${scope} scope that the tool called needs`
    })
    return Effect.flip(challenged(organizationId, response, (challenge) =>
      resourceChallenge({
        error: "insufficient_scope",
        resourceMetadata: challenge.resourceMetadata,
        scopes: challenge.scopesGranting(scope)
      })))
  }

  return { admit, checkScope } as const
}
