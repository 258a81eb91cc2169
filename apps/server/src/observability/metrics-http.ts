import { HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  METRIC_HTTP_SERVER_REQUEST_DURATION
} from "@opentelemetry/semantic-conventions"
import { Context, Effect, Exit, Option } from "effect"
import * as FindMyWay from "find-my-way-ts"
import type { RouteSpec } from "../http/method-not-allowed.js"
import { Metrics } from "./metrics.js"

/**
 * The OpenTelemetry advice for request durations, with 1 ms and 2.5 ms below
 * (most answers here take less than 5 ms) and 30 s above (the longest
 * deadline, assigning a lesson to everyone).
 */
const BOUNDARIES = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30]

// Any other method is one value, so a caller inventing methods cannot grow the series.
const KNOWN_METHODS = new Set(["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"])

/** `/v1/members/:id` as OpenTelemetry and OpenAPI write it: `/v1/members/{id}`. */
const template = (path: string) => path.replace(/:([^/]+)/g, "{$1}")

/**
 * The route template a request matched, by the router's own matcher
 * (find-my-way, the same defaults), or undefined for a path no route has.
 * A template, never the path: the series stay as many as the routes.
 */
export const routeTemplates = (routes: ReadonlyArray<RouteSpec>) => {
  const router = FindMyWay.make<string>()
  for (const route of routes) router.on(route.method, route.path as FindMyWay.PathInput, template(route.path))
  return (method: string, path: string): string | undefined =>
    (router.find(method, path) ?? (method === "HEAD" ? router.find("GET", path) : undefined))?.handler
}

type Middleware = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>

const unmeasured: Middleware = (app) => app

const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>) =>
  Exit.isSuccess(exit) ? exit.value.status : HttpServerError.causeResponseStripped(exit.cause)[0].status

/**
 * `http.server.request.duration` around the edge (every answer, early ones
 * included), by method, route template and status. Decided once, as the
 * edge is built: with metrics off the edge is returned as it is, and a
 * request pays nothing.
 */
export const requestDurations = (routes: ReadonlyArray<RouteSpec>): Effect.Effect<Middleware> =>
  Effect.map(Effect.serviceOption(Metrics), (metrics) => {
    const meter = Option.flatMap(metrics, (metrics) => metrics.meter)
    if (Option.isNone(meter)) return unmeasured
    const histogram = meter.value.createHistogram(METRIC_HTTP_SERVER_REQUEST_DURATION, {
      description: "Duration of HTTP requests, from the edge receiving them to their answer",
      unit: "s",
      advice: { explicitBucketBoundaries: BOUNDARIES }
    })
    const routeOf = routeTemplates(routes)
    return <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>((fiber) => {
        const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
        const started = performance.now()
        return Effect.onExit(app, (exit) =>
          Effect.sync(() => {
            const url = request.url
            const mark = url.indexOf("?")
            const method = KNOWN_METHODS.has(request.method) ? request.method : "_OTHER"
            const route = routeOf(request.method, mark === -1 ? url : url.slice(0, mark))
            histogram.record((performance.now() - started) / 1000, {
              [ATTR_HTTP_REQUEST_METHOD]: method,
              [ATTR_HTTP_RESPONSE_STATUS_CODE]: statusOf(exit),
              ...(route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route })
            })
          }))
      })
  })
