import { HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Clock, Context, DefaultServices, Effect, FiberRef, HashMap, List, LogSpan } from "effect"

/**
 * The label of the log span every line a request logs carries: the
 * milliseconds since the request started, under `spans` in a JSON line.
 * The platform's logger numbers it (`http.span.N`), which makes a new field
 * for an index on every request; one name makes one field.
 */
const REQUEST_LOG_SPAN = "http.request"

/**
 * The access log: one "Sent HTTP response" line per request, annotated with
 * `http.method`, `http.url` and `http.status` besides the request's own
 * annotations (its id), and the log span `http.request` from the request's
 * start on every line the request logs. It writes what the platform's
 * `HttpMiddleware.logger` writes, line for line, but for that span's name.
 *
 * The platform scopes its span and annotations around the request
 * (`withLogSpan`, `annotateLogs`), a dozen Effect operations each; here they
 * are set on the request's own fiber, which ends with the request, as the
 * edge sets the request id (./request-id.ts). That was a third of the CPU of
 * a request that needs no database.
 */
export const accessLog = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiberRuntime((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const clock = Context.get(fiber.getFiberRef(DefaultServices.currentServices), Clock.Clock)
    const span = LogSpan.make(REQUEST_LOG_SPAN, clock.unsafeCurrentTimeMillis())
    return FiberRef.update(FiberRef.currentLogSpan, List.prepend(span)).pipe(
      Effect.zipRight(Effect.exit(app)),
      Effect.flatMap((exit) => {
        let status: number
        let message: unknown = "Sent HTTP response"
        if (exit._tag === "Success") {
          status = exit.value.status
        } else {
          const [response, cause] = HttpServerError.causeResponseStripped(exit.cause)
          status = response.status
          message = cause._tag === "Some" ? cause.value : "Sent HTTP Response"
        }
        return FiberRef.update(FiberRef.currentLogAnnotations, (annotations) =>
          HashMap.set(HashMap.set(HashMap.set(annotations, "http.method", request.method), "http.url", request.url), "http.status", status)).pipe(
            Effect.zipRight(Effect.log(message)),
            Effect.zipRight(exit)
          )
      })
    )
  })
