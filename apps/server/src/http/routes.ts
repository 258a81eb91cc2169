import { HttpLayerRouter } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "@tks/api/api"
import { keyedWriteRoutes } from "@tks/api/idempotent-writes"
import { AuthenticationLive } from "./authentication.js"
import { ClosedQueryLive } from "./closed-query.js"
import { EdgeLive } from "./edge.js"
import { AdministrationHandlers } from "./handlers/administration.js"
import { AssigningHandlers } from "./handlers/assigning.js"
import { CompanyRolesHandlers } from "./handlers/company-roles.js"
import { ContentReviewHandlers } from "./handlers/content-review.js"
import { ContentHandlers } from "./handlers/content.js"
import { DocumentsHandlers } from "./handlers/documents.js"
import { DutiesHandlers } from "./handlers/duties.js"
import { IssuesHandlers } from "./handlers/issues.js"
import { KnowledgeHandlers } from "./handlers/knowledge.js"
import { LessonsHandlers } from "./handlers/lessons.js"
import { MaturityHandlers } from "./handlers/maturity.js"
import { LearningHandlers } from "./handlers/learning.js"
import { LearningQueueHandlers } from "./handlers/learning-queue.js"
import { MeHandlers } from "./handlers/me.js"
import { MembersHandlers } from "./handlers/members.js"
import { NarrationHandlers } from "./handlers/narration.js"
import { OAuthSettingsHandlers } from "./handlers/oauth-settings.js"
import { EventsHandlers } from "./handlers/events.js"
import { PopQuizzesHandlers } from "./handlers/pop-quizzes.js"
import { SearchHandlers } from "./handlers/search.js"
import { TeamsHandlers } from "./handlers/teams.js"
import { ThirdPartiesHandlers } from "./handlers/third-parties.js"
import { TrainingHandlers } from "./handlers/training.js"
import { VideosHandlers } from "./handlers/videos.js"
import { WebhooksHandlers } from "./handlers/webhooks.js"
import { HealthRoutes, HealthRouteSpecs } from "./health.js"
import { jsonBodyRoutesOfApi } from "./media-type.js"
import { routesOfApi } from "./method-not-allowed.js"
import { DOCS_PATH, OPENAPI_PATH, OpenApiRoutes } from "./openapi.js"
import { MCP_PATH } from "../tools/mcp-route.js"
import { ToolRoutes, ToolRouteSpecs } from "../tools/routes.js"
import { RPC_PATH } from "../tools/rpc-route.js"
import { ScimRoutes, ScimRouteSpecs } from "../scim/routes.js"

const ApiRoutes = HttpLayerRouter.addHttpApi(Api).pipe(
  Layer.provide([
    MeHandlers,
    TeamsHandlers,
    MembersHandlers,
    CompanyRolesHandlers,
    ThirdPartiesHandlers,
    DutiesHandlers,
    AdministrationHandlers,
    OAuthSettingsHandlers,
    EventsHandlers,
    ContentHandlers,
    DocumentsHandlers,
    VideosHandlers,
    ContentReviewHandlers,
    IssuesHandlers,
    KnowledgeHandlers,
    SearchHandlers,
    MaturityHandlers,
    NarrationHandlers,
    LessonsHandlers,
    TrainingHandlers,
    PopQuizzesHandlers,
    AssigningHandlers,
    LearningHandlers,
    LearningQueueHandlers,
    WebhooksHandlers
  ]),
  Layer.provide([AuthenticationLive, ClosedQueryLive])
)

const Edge = EdgeLive({
  routes: [
    ...routesOfApi(Api),
    { method: "GET", path: OPENAPI_PATH },
    { method: "GET", path: DOCS_PATH },
    ...HealthRouteSpecs,
    ...ToolRouteSpecs,
    ...ScimRouteSpecs
  ],
  docsPaths: [DOCS_PATH],
  jsonBodyRoutes: jsonBodyRoutesOfApi(Api),
  keyedWriteRoutes: keyedWriteRoutes(Api),
  hostCheckedPaths: [MCP_PATH, RPC_PATH]
})

/** Every route of the HTTP server (/v1, docs, probes, /mcp, /rpc and /scim/v2). Needs the core services and DatabaseHealth. */
export const HttpRoutes = Layer.mergeAll(ApiRoutes, OpenApiRoutes, HealthRoutes, ToolRoutes, ScimRoutes, Edge)
