import { Effect, FiberRef, type Tracer } from "effect"

/**
 * `Effect.fn(name)` that costs nothing when tracing is off.
 *
 * Every call of an `Effect.fn` function captures a stack trace for its span
 * and adds the span to the context, even when no tracer is set and the span
 * goes nowhere. With tracing off (no exporter configured) a call here runs
 * the body as `Effect.fnUntraced` would; with it on, exactly as `Effect.fn`
 * (the same span name and options). The choice is read per call from the
 * fiber, so a test or a process that turns tracing on gets every span.
 */
export const traced = (name: string, options?: Tracer.SpanOptions): Effect.fn.Gen & Effect.fn.NonGen =>
  ((body: Function, ...pipeables: Array<Function>) => {
    const withSpan: Function = (Effect.fn(name, options) as Function)(body, ...pipeables)
    const without: Function = (Effect.fnUntraced as Function)(body, ...pipeables)
    return Object.defineProperty(
      function(this: unknown, ...args: Array<unknown>) {
        return Effect.withFiberRuntime((fiber) =>
          fiber.getFiberRef(FiberRef.currentTracerEnabled) ? withSpan.apply(this, args) : without.apply(this, args)
        )
      },
      "length",
      { value: body.length, configurable: true }
    )
  }) as never
