import { Headers, HttpTraceContext } from "@effect/platform"
import { Context, type Fiber, FiberRef, Option, Tracer } from "effect"

/**
 * The W3C `traceparent` of the span `fiber` runs in, kept on a job it
 * queues; null with tracing off (then this is one flag check) or outside
 * any span.
 */
export const traceparentOf = (fiber: Fiber.RuntimeFiber<unknown, unknown>): string | null => {
  if (!fiber.getFiberRef(FiberRef.currentTracerEnabled)) return null
  const span = Option.getOrUndefined(Context.getOption(fiber.currentContext, Tracer.ParentSpan))
  return span?._tag === "Span" ? HttpTraceContext.toHeaders(span).traceparent ?? null : null
}

/** The link from a job's run to the span that queued it; none when its `traceparent` is missing or not W3C. */
export const linksTo = (traceparent: string | undefined): ReadonlyArray<Tracer.SpanLink> => {
  if (traceparent === undefined) return []
  const span = HttpTraceContext.w3c(Headers.unsafeFromRecord({ traceparent }))
  return Option.isSome(span) ? [{ _tag: "SpanLink", span: span.value, attributes: {} }] : []
}
