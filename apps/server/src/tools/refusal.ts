import { HttpApiSchema } from "@effect/platform"
import { Effect, Schema } from "effect"
import { ToolError } from "@tks/mcp/contract/tool"
import { errorResponse } from "../http/error-response.js"

// Each error's status is the one its Schema declares for HTTP (@tks/domain/errors).
const statusOf = new Map<string, number>(ToolError.members.map((member) => [member._tag, HttpApiSchema.getStatusError(member)]))

/**
 * A tool request (/mcp or /rpc) refused before its body is read: the HTTP
 * status and JSON body of the error (401 gets `WWW-Authenticate` at the
 * edge, 429 its Retry-After here, 503 its Retry-After at the edge).
 */
export const refusal = (error: ToolError) =>
  Schema.encode(ToolError)(error).pipe(
    Effect.orDie,
    Effect.map((body) =>
      errorResponse(
        statusOf.get(error._tag) ?? 500,
        body,
        error._tag === "TooManyRequests" ? { "retry-after": String(error.retryAfterSeconds) } : undefined
      )
    )
  )
