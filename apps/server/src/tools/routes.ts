import { Layer } from "effect"
import { ToolAuthorizationLive, ToolCallers } from "@tks/mcp/authorization"
import { ToolHandlersLive } from "@tks/mcp/handlers/live"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import type { RouteSpec } from "../http/method-not-allowed.js"
import { MCP_PATH, McpRoute } from "./mcp-route.js"
import { RPC_PATH, RpcRoute } from "./rpc-route.js"

/** The tool routes, for the edge's method table. */
export const ToolRouteSpecs: ReadonlyArray<RouteSpec> = [
  { method: "POST", path: MCP_PATH },
  { method: "POST", path: RPC_PATH }
]

const ToolsLive = Layer.mergeAll(ToolHandlersLive, ToolAuthorizationLive)

/** /mcp and /rpc: the read-only tools (@tks/mcp) over MCP and Effect RPC. Needs the core services. */
export const ToolRoutes = Layer.mergeAll(McpRoute.pipe(Layer.provide(ToolDispatcher.Default)), RpcRoute).pipe(
  Layer.provide(ToolCallers.Default),
  Layer.provide(ToolsLive)
)
