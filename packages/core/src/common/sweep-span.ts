import { Clock, Context, Effect, Exit, FiberRef, Option } from "effect"

/**
 * A background sweep (run every few seconds in every process) traced only
 * when it did something: `worth` gives the attributes of a sweep that did
 * work, or undefined for one that found nothing, which leaves no span. A
 * failed sweep always leaves one, with its error.
 *
 * Why not a span per sweep: an idle sweep says nothing but "still running",
 * and at one every 30 s per process it would outnumber the spans worth
 * reading. The sweep runs untraced and its span is recorded when it ends,
 * with its real start and end; its statement is not a child span (each sweep
 * is one statement, and the span names what it did).
 *
 * With tracing off this is one flag check.
 */
export const sweepSpan = <A, E, R>(
  name: string,
  worth: (result: A) => Record<string, unknown> | undefined
) =>
(sweep: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) => {
    if (!fiber.getFiberRef(FiberRef.currentTracerEnabled)) return sweep
    const tracer = fiber.currentTracer
    const clock = Context.get(fiber.currentDefaultServices, Clock.Clock)
    const startTime = clock.unsafeCurrentTimeNanos()
    return Effect.onExit(Effect.withTracerEnabled(sweep, false), (exit) =>
      Effect.sync(() => {
        const attributes = Exit.isSuccess(exit) ? worth(exit.value) : {}
        if (attributes === undefined) return
        const span = tracer.span(name, Option.none(), Context.empty(), [], startTime, "internal", { captureStackTrace: false })
        for (const [key, value] of Object.entries(attributes)) span.attribute(key, value)
        span.end(clock.unsafeCurrentTimeNanos(), exit)
      }))
  })

