import { HttpApiScalar, HttpLayerRouter } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "@tks/api/api"
import { AuthenticationLive } from "./authentication.js"
import { EdgeLive } from "./edge.js"
import { AdministrationHandlers } from "./handlers/administration.js"
import { CompanyRolesHandlers } from "./handlers/company-roles.js"
import { MeHandlers } from "./handlers/me.js"
import { MembersHandlers } from "./handlers/members.js"
import { TeamsHandlers } from "./handlers/teams.js"
import { HealthRoutes, HealthRouteSpecs } from "./health.js"
import { routesOfApi } from "./method-not-allowed.js"

const OPENAPI_PATH = "/v1/openapi.json"
const DOCS_PATH = "/docs"

const ApiRoutes = HttpLayerRouter.addHttpApi(Api, { openapiPath: OPENAPI_PATH }).pipe(
  Layer.provide([MeHandlers, TeamsHandlers, MembersHandlers, CompanyRolesHandlers, AdministrationHandlers]),
  Layer.provide(AuthenticationLive)
)

/** The docs page bundles its viewer (no CDN), so it works offline. */
const DocsRoute = HttpApiScalar.layerHttpLayerRouter({ api: Api, path: DOCS_PATH })

const Edge = EdgeLive({
  routes: [
    ...routesOfApi(Api),
    { method: "GET", path: OPENAPI_PATH },
    { method: "GET", path: DOCS_PATH },
    ...HealthRouteSpecs
  ],
  docsPaths: [DOCS_PATH]
})

/** Every route of the HTTP transport. Needs the core services and DatabaseHealth. */
export const HttpRoutes = Layer.mergeAll(ApiRoutes, DocsRoute, HealthRoutes, Edge)
