import { HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { DatabaseHealth } from "@tks/db/health"
import { errorResponse } from "./error-response.js"
import type { RouteSpec } from "./method-not-allowed.js"

/** The probes, for the edge's method table. */
export const HealthRouteSpecs: ReadonlyArray<RouteSpec> = [
  { method: "GET", path: "/health" },
  { method: "GET", path: "/ready" }
]

/**
 * GET /health: the process is alive (liveness).
 * GET /ready: the database answers (readiness); 503 with the JSON error body otherwise.
 */
export const HealthRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const database = yield* DatabaseHealth
    yield* router.add("GET", "/health", HttpServerResponse.unsafeJson({ status: "ok" }))
    yield* router.add(
      "GET",
      "/ready",
      database.ping.pipe(
        Effect.map((up) =>
          up
            ? HttpServerResponse.unsafeJson({ status: "ready" })
            : errorResponse(503, { _tag: "ServiceUnavailable", code: "SERVICE_UNAVAILABLE", message: "The database is not reachable" })
        )
      )
    )
  })
)
