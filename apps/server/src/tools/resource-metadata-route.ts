import { HttpLayerRouter, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"
import { OAuthResource } from "@tks/core/oauth/service"
import { OrganizationId } from "@tks/domain/ids"
import { refusal } from "./refusal.js"

/** RFC 9728 3.1: the well-known segment, then the resource's path (/mcp/{organizationId}). */
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource/mcp/:organizationId"

/** Long enough to spare a client's second read, short enough that a changed provider shows within a minute. */
const CACHE_CONTROL = "public, max-age=60"

/**
 * GET /.well-known/oauth-protected-resource/mcp/{organizationId}: the
 * Protected Resource Metadata of an organization's MCP resource, public (a
 * client reads it before it has a token), for every organization; an
 * unknown one is 404 with the JSON error body.
 */
export const ResourceMetadataRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const resource = yield* OAuthResource
    yield* router.add(
      "GET",
      RESOURCE_METADATA_PATH,
      Effect.gen(function*() {
        const { organizationId } = yield* HttpRouter.params
        return yield* withSqlErrorAnswers(resource.metadata(OrganizationId.make(organizationId ?? ""))).pipe(
          Effect.map((document) => HttpServerResponse.unsafeJson(document, { headers: { "cache-control": CACHE_CONTROL } })),
          Effect.catchAll(refusal)
        )
      })
    )
  })
)
