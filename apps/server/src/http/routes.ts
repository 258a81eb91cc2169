import { HttpLayerRouter } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "@tks/api/api"
import { AuthenticationLive } from "./authentication.js"
import { DeadlineLive } from "./deadline.js"
import { ErrorBodiesLive } from "./error-bodies.js"
import { AdministrationHandlers } from "./handlers/administration.js"
import { CompanyRolesHandlers } from "./handlers/company-roles.js"
import { MeHandlers } from "./handlers/me.js"
import { MembersHandlers } from "./handlers/members.js"
import { TeamsHandlers } from "./handlers/teams.js"
import { HealthRoutes } from "./health.js"
import { OpenApiRoutes } from "./openapi.js"

const ApiRoutes = HttpLayerRouter.addHttpApi(Api).pipe(
  Layer.provide([MeHandlers, TeamsHandlers, MembersHandlers, CompanyRolesHandlers, AdministrationHandlers]),
  Layer.provide(AuthenticationLive)
)

/** Every route of the HTTP transport. Needs the core services and DatabaseHealth. */
export const HttpRoutes = Layer.mergeAll(ApiRoutes, OpenApiRoutes, HealthRoutes, ErrorBodiesLive, DeadlineLive)
