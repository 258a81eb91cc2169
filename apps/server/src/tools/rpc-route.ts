import { RpcSerialization, RpcServer } from "@effect/rpc"
import { Layer } from "effect"
import { Tools } from "@tks/mcp/contract/tools"

export const RPC_PATH = "/rpc"

/**
 * POST /rpc: the same tools as /mcp, for Effect clients (`RpcClient.make(Tools)`
 * over `RpcClient.layerProtocolHttp` with NDJSON serialization). Each call
 * carries `Authorization: Bearer <token>` and passes ToolAuthorization.
 */
export const RpcRoute = RpcServer.layerHttpRouter({ group: Tools, path: RPC_PATH, protocol: "http" }).pipe(
  Layer.provide(RpcSerialization.layerNdjson)
)
