import { Effect, RuntimeFlags, RuntimeFlagsPatch } from "effect"

/**
 * Runs `program` with Effect's own fiber metrics off. By default the runtime
 * counts every fiber's start and end and records its lifetime
 * (effect_fiber_*): a few microseconds per fiber, several fibers per
 * request, for numbers this service never exports (its metrics are the
 * tks.* and OpenTelemetry ones, observability/metrics.ts). Every fiber
 * started inside inherits the setting, the request fibers included.
 */
export const withoutFiberMetrics = <A, E, R>(program: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withRuntimeFlagsPatch(program, RuntimeFlagsPatch.disable(RuntimeFlags.RuntimeMetrics))
