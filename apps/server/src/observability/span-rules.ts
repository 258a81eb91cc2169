import { HttpApiSchema } from "@effect/platform"
import { Cause, Exit, Predicate, Schema, Tracer } from "effect"
import { redactQuery } from "./redaction.js"
import { conventionFor } from "./span-conventions.js"

/**
 * The rules on every span the service exports, applied where spans are made
 * (the platform's HTTP tracer and Effect's `withSpan` set their attributes
 * and end their spans themselves):
 *
 * 1. URL attributes never carry a credential passed in the query
 *    (./redaction.ts); of the headers, only a few harmless ones are kept
 *    (./span-conventions.ts), so Authorization and cookies are not recorded.
 * 2. An expected client error is no exception. A span that fails with an
 *    error declaring a 4xx status (NotFound, Forbidden, Unauthorized, a 400
 *    ...), or an HTTP server span answering 4xx, ends with its status unset
 *    and no exception event or stack trace, as OpenTelemetry asks of server
 *    spans: the caller erred, the service did not. A server span answering
 *    5xx has status ERROR; any other failure keeps its exception and stack
 *    (and a client span's 4xx stays an error: there, this service erred).
 * 3. HTTP server spans and SQL spans are named and described as
 *    OpenTelemetry's conventions say (./span-conventions.ts).
 */

const URL_ATTRIBUTES = new Set(["url.full", "url.query", "url.original", "http.url", "http.target"])
const STACK_ATTRIBUTE = "code.stacktrace"
const STATUS_ATTRIBUTE = "http.response.status_code"

const isClientStatus = (status: unknown): boolean => typeof status === "number" && status >= 400 && status < 500

/** The status an error declares on its schema (our domain errors and the platform's decode error do); 500 for the rest. */
const declaredStatus = (error: unknown): number => {
  const schema: unknown = Predicate.isObject(error) ? error.constructor : undefined
  return Schema.isSchema(schema) ? HttpApiSchema.getStatusErrorAST(schema.ast) : 500
}

/** A failure made only of errors that declare a 4xx status: nothing died, nothing was interrupted. */
const isExpectedClientError = (cause: Cause.Cause<unknown>): boolean => {
  if (Cause.isDie(cause) || Cause.isInterrupted(cause)) return false
  const failures = Cause.failures(cause)
  let any = false
  for (const error of failures) {
    if (!isClientStatus(declaredStatus(error))) return false
    any = true
  }
  return any
}

/** The OpenTelemetry span behind an Effect span of @effect/opentelemetry (its `span` field). */
interface OtelBacked {
  readonly span: {
    setStatus(status: { code: number; message?: string }): unknown
    end(time?: [number, number]): void
    updateName(name: string): unknown
    setAttribute(key: string, value: ReadonlyArray<string>): unknown
  }
}

const isOtelBacked = (span: Tracer.Span): span is Tracer.Span & OtelBacked =>
  Predicate.hasProperty(span, "span") && Predicate.hasProperty(span.span, "end") && Predicate.hasProperty(span.span, "setStatus") &&
  Predicate.hasProperty(span.span, "updateName") && Predicate.hasProperty(span.span, "setAttribute")

const ERROR_STATUS = 2 // SpanStatusCode.ERROR

const hrTime = (nanos: bigint): [number, number] => [Number(nanos / 1_000_000_000n), Number(nanos % 1_000_000_000n)]

const withRules = (span: Tracer.Span): Tracer.Span => {
  if (!isOtelBacked(span)) return span
  let stack: unknown = undefined
  const convention = conventionFor(span)
  const ruled: Tracer.Span = Object.create(span, {
    attribute: {
      value: (key: string, value: unknown) => {
        if (key === STACK_ATTRIBUTE) stack = value
        else if (convention === undefined || !convention(span, span.span, key, value)) {
          span.attribute(key, URL_ATTRIBUTES.has(key) && typeof value === "string" ? redactQuery(value) : value)
        }
      }
    },
    end: {
      value: (endTime: bigint, exit: Exit.Exit<unknown, unknown>) => {
        // A server span is judged by its answer; any other (a client call's 4xx is its caller's error) by its failure.
        const answer = span.kind === "server" ? span.attributes.get(STATUS_ATTRIBUTE) : undefined
        const answered = typeof answer === "number"
        const clientError = answered ? isClientStatus(answer) : Exit.isFailure(exit) && isExpectedClientError(exit.cause)
        const serverError = answered && answer >= 500 && Exit.isSuccess(exit)
        if (!clientError && !serverError) {
          if (stack !== undefined) span.attribute(STACK_ATTRIBUTE, stack)
          return span.end(endTime, exit)
        }
        // Ended here rather than by the span's own `end`, which sets OK or records the failure as an exception.
        Object.defineProperty(ruled, "status", {
          value: { _tag: "Ended", endTime, exit, startTime: span.status.startTime } satisfies Tracer.SpanStatus
        })
        if (serverError) span.span.setStatus({ code: ERROR_STATUS, message: `HTTP ${answer}` })
        span.span.end(hrTime(endTime))
      }
    }
  })
  return ruled
}

/** `tracer`, with the rules above on every span it makes. */
export const withSpanRules = (tracer: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    span: (...args) => withRules(tracer.span(...args)),
    context: (execution, fiber) => tracer.context(execution, fiber)
  })
