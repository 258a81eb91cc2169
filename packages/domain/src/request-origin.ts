import { Context } from "effect"

/**
 * Where the act being done came from, for its audit row: the request id the
 * edge gave the request, the client's address and user agent, and the
 * transport. Each transport provides it around the work it runs (the HTTP
 * edge, the MCP route, the CLI, the workers); the default is an unnamed
 * origin, which the audit log shows as nulls.
 */
export interface RequestOriginValue {
  readonly transport: "http" | "mcp" | "rpc" | "cli" | "worker" | "unknown"
  readonly requestId: string | null
  readonly clientIp: string | null
  readonly userAgent: string | null
}

export class RequestOrigin extends Context.Reference<RequestOrigin>()("@tks/domain/RequestOrigin", {
  defaultValue: (): RequestOriginValue => ({ transport: "unknown", requestId: null, clientIp: null, userAgent: null })
}) {}
