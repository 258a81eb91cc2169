import { HttpApiScalar, HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { apiServing, openApiDocument } from "@tks/api/openapi"
import { PublicUrl } from "@tks/core/shared/links"

/**
 * GET /v1/openapi.json: the document as the wire is (servers = PUBLIC_URL).
 * GET /docs: the Scalar page over that same document; its viewer is bundled
 * (no CDN), so it works offline.
 */
export const OPENAPI_PATH = "/v1/openapi.json"
export const DOCS_PATH = "/docs"

export const OpenApiRoutes = Layer.unwrapEffect(
  Effect.gen(function*() {
    const document = openApiDocument(yield* PublicUrl)
    return Layer.mergeAll(
      HttpLayerRouter.add("GET", OPENAPI_PATH, Effect.succeed(HttpServerResponse.unsafeJson(document))),
      HttpApiScalar.layerHttpLayerRouter({ api: apiServing(document), path: DOCS_PATH })
    )
  })
)
