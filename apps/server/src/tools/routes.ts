import { Layer } from "effect"
import { ToolAuthorizationLive, ToolCallers } from "@tks/mcp/authorization"
import { ToolHandlersLive } from "@tks/mcp/handlers/live"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import type { RouteSpec } from "../http/method-not-allowed.js"
import { MCP_ORGANIZATION_PATH, MCP_PATH, McpRoute } from "./mcp-route.js"
import { RESOURCE_METADATA_PATH, ResourceMetadataRoute } from "./resource-metadata-route.js"
import { RPC_PATH, RpcRoute } from "./rpc-route.js"

/** The tool routes, for the edge's method table. */
export const ToolRouteSpecs: ReadonlyArray<RouteSpec> = [
  { method: "POST", path: MCP_PATH },
  { method: "POST", path: MCP_ORGANIZATION_PATH },
  { method: "GET", path: RESOURCE_METADATA_PATH },
  { method: "POST", path: RPC_PATH }
]

const ToolsLive = Layer.mergeAll(ToolHandlersLive, ToolAuthorizationLive)

/**
 * /mcp (and each organization's /mcp/{organizationId}, with its metadata
 * document) and /rpc: the read-only tools (@tks/mcp) over MCP and Effect
 * RPC. Needs the core services.
 */
export const ToolRoutes = Layer.mergeAll(McpRoute.pipe(Layer.provide(ToolDispatcher.Default)), RpcRoute, ResourceMetadataRoute).pipe(
  Layer.provide(ToolCallers.Default),
  Layer.provide(ToolsLive)
)
