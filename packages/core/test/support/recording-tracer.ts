import { Effect, Tracer } from "effect"

/** Effect's own tracer, keeping every span it makes (install it with `Effect.withTracer`). */
export const recordingTracer = Effect.map(Effect.tracer, (base) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = base.span(...args)
      spans.push(span)
      return span
    },
    context: base.context
  })
  return { tracer, spans }
})
