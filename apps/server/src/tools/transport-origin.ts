import { Effect } from "effect"
import { RequestOrigin, type RequestOriginValue } from "@tks/domain/request-origin"

/**
 * The origin the edge gave the request (request id, client address, user
 * agent), renamed for the transport that serves it, around `route`.
 */
export const asTransport = (transport: RequestOriginValue["transport"]) => <A, E, R>(route: Effect.Effect<A, E, R>) =>
  Effect.flatMap(RequestOrigin, (origin) => Effect.provideService(route, RequestOrigin, { ...origin, transport }))
