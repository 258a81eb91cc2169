import { describe, expect, it } from "@effect/vitest"
import { Data, Effect, Exit } from "effect"
import { sweepSpan } from "../src/common/sweep-span.js"
import { recordingTracer } from "./support/recording-tracer.js"

class SweepFailed extends Data.TaggedError("SweepFailed")<{ readonly message: string }> {}

/** Runs `effect` with Effect's own tracer, keeping every span made; the spans. */
const recorded = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const { spans, tracer } = yield* recordingTracer
    yield* Effect.exit(effect.pipe(Effect.withTracer(tracer)))
    return spans
  })

/** A sweep that touched `count` rows, with a span of its own inside (as a statement's would be). */
const sweep = (count: number) =>
  Effect.succeed(count).pipe(
    Effect.withSpan("sql.execute"),
    sweepSpan("Test.sweep", (touched) => (touched > 0 ? { "tks.test.touched": touched } : undefined))
  )

describe("background sweep spans", () => {
  it.effect("a sweep that did work leaves one span, with its attributes and none of its inner spans", () =>
    Effect.gen(function*() {
      const spans = yield* recorded(sweep(3))
      expect(spans.map((span) => span.name)).toEqual(["Test.sweep"])
      expect(spans[0]!.attributes.get("tks.test.touched")).toBe(3)
      expect(spans[0]!.status._tag).toBe("Ended")
    }))

  it.effect("a sweep that found nothing leaves no span", () =>
    Effect.gen(function*() {
      expect(yield* recorded(sweep(0))).toEqual([])
    }))

  it.effect("a failed sweep leaves a failed span", () =>
    Effect.gen(function*() {
      const spans = yield* recorded(
        Effect.fail(new SweepFailed({ message: "database gone" })).pipe(sweepSpan("Test.sweep", () => ({})))
      )
      expect(spans.map((span) => span.name)).toEqual(["Test.sweep"])
      const status = spans[0]!.status
      expect(status._tag === "Ended" && Exit.isFailure(status.exit)).toBe(true)
    }))

  it.effect("with tracing off, a sweep that did work leaves no span", () =>
    Effect.gen(function*() {
      expect(yield* recorded(sweep(3).pipe(Effect.withTracerEnabled(false)))).toEqual([])
    }))
})
