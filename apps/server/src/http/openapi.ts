import { HttpApiScalar, HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Authentication } from "@tks/api/authentication"
import { apiServing, openApiDocument } from "@tks/api/openapi"
import { PublicUrl } from "@tks/core/common/links"

/**
 * GET /v1/openapi.json: the document as the wire is (servers = PUBLIC_URL).
 * GET /docs: the Scalar page over that same document; its viewer is bundled
 * (no CDN), so it works offline.
 */
export const OPENAPI_PATH = "/v1/openapi.json"
export const DOCS_PATH = "/docs"

/**
 * "Try it" starts on the bearer scheme (the document's only one, named as
 * the Authentication middleware declares it), so a pasted token is sent at
 * once. No web fonts: they would come from Scalar's servers, which the docs
 * page's policy (and an offline network) refuses. (`authentication` is a
 * Scalar setting the platform's type does not list.)
 */
const scalarSettings: HttpApiScalar.ScalarConfig & { readonly authentication: { readonly preferredSecurityScheme: string } } = {
  withDefaultFonts: false,
  authentication: { preferredSecurityScheme: Object.keys(Authentication.security)[0] ?? "bearer" }
}

export const OpenApiRoutes = Layer.unwrapEffect(
  Effect.gen(function*() {
    const document = openApiDocument(yield* PublicUrl)
    return Layer.mergeAll(
      HttpLayerRouter.add("GET", OPENAPI_PATH, Effect.succeed(HttpServerResponse.unsafeJson(document))),
      HttpApiScalar.layerHttpLayerRouter({ api: apiServing(document), path: DOCS_PATH, scalar: scalarSettings })
    )
  })
)
