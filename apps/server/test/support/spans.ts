import type { ReadableSpan } from "@opentelemetry/sdk-trace-base"

/** Whether a span of `spans` has `ancestor` above it (its parent, or its parent's, and so on). */
export const descendsFrom = (spans: ReadonlyArray<ReadableSpan>, ancestor: ReadableSpan) => {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]))
  const target = ancestor.spanContext().spanId
  return (span: ReadableSpan): boolean => {
    for (let id = span.parentSpanContext?.spanId, hops = 0; id !== undefined && hops < 50; hops++) {
      if (id === target) return true
      id = byId.get(id)?.parentSpanContext?.spanId
    }
    return false
  }
}
