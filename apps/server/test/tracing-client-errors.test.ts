import { describe, expect, it, layer } from "@effect/vitest"
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer } from "effect"
import { NotFound, ServiceUnavailable, Unauthorized } from "@tks/domain/errors"
import { tracingWith } from "../src/observability/tracing.js"
import { withCallerMatrix } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

const exporter = new InMemorySpanExporter()
const TracedServer = TestServerLive.pipe(Layer.provide(tracingWith(new SimpleSpanProcessor(exporter), "tks-test")))

const exceptionsOf = (spans: ReadonlyArray<ReadableSpan>) =>
  spans.flatMap((span) => [
    ...span.events.filter((event) => event.name === "exception" || "exception.stacktrace" in (event.attributes ?? {}))
      .map((event) => `${span.name}: ${String(event.attributes?.["exception.message"] ?? event.name)}`),
    ...("code.stacktrace" in span.attributes ? [`${span.name}: code.stacktrace`] : [])
  ])

/** The spans of one request, once they have ended (they end after the response is written). */
const spansOf = (method: string, path: string, token: string | undefined) =>
  Effect.gen(function*() {
    exporter.reset()
    const response = yield* raw(method, path, { token })
    yield* Effect.sleep("200 millis")
    return { status: response.status, spans: exporter.getFinishedSpans() }
  })

layer(TracedServer, { excludeTestServices: true })("tracing of expected client errors", (it) => {
  describe("a 4xx answer is not an exception", () => {
    it.effect("401, 403, 404 and 400: no exception event or stack trace on any span, status unset on the server span and the failed one", () =>
      Effect.gen(function*() {
        const { tokens } = yield* withCallerMatrix({ organization: { name: "Client Error Org" } })
        const cases = [
          { path: "/v1/me", token: undefined, status: 401, failed: "Authenticator.authenticate" },
          { path: "/v1/members?noManager=true", token: tokens.viewer, status: 403, failed: "Members.list" },
          { path: "/v1/lessons/00000000-0000-0000-0000-000000000000", token: tokens.admin, status: 404, failed: "Lessons.get" },
          { path: "/v1/members?limit=abc", token: tokens.admin, status: 400, failed: undefined }
        ] as const
        for (const request of cases) {
          const { spans, status } = yield* spansOf("GET", request.path, request.token)
          expect(status, request.path).toBe(request.status)
          const server = spans.find((span) => span.kind === SpanKind.SERVER && span.attributes["http.request.method"] === "GET")
          expect(server, spans.map((span) => span.name).join(", ")).toBeDefined()
          expect(server!.attributes["http.response.status_code"]).toBe(request.status)
          expect(server!.status.code, request.path).toBe(SpanStatusCode.UNSET)
          expect(exceptionsOf(spans), request.path).toEqual([])
          if (request.failed !== undefined) {
            const failed = spans.find((span) => span.name === request.failed)
            expect(failed, spans.map((span) => span.name).join(", ")).toBeDefined()
            expect(failed!.status.code, request.failed).toBe(SpanStatusCode.UNSET)
          }
          expect(spans.filter((span) => span.status.code === SpanStatusCode.ERROR).map((span) => span.name), request.path).toEqual([])
        }
      }))
  })
})

/** Runs `body` with a tracer of its own (its provider empties the exporter when it shuts down), then finds its ended spans by name. */
const traced = <A, E>(body: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const local = new InMemorySpanExporter()
    const spans = yield* body.pipe(
      Effect.zipRight(Effect.sync(() => local.getFinishedSpans())),
      Effect.provide(tracingWith(new SimpleSpanProcessor(local), "tks-test"))
    )
    return (name: string) => spans.find((span) => span.name === name)
  })

describe("span outcomes", () => {
  it.effect("an expected client error ends its span unset with no exception; a 5xx error or a defect keeps ERROR and the stack", () =>
    Effect.gen(function*() {
      const ended = yield* traced(Effect.gen(function*() {
        yield* Effect.fail(new NotFound({ message: "No such lesson" })).pipe(Effect.withSpan("client"), Effect.ignore)
        yield* Effect.fail(new Unauthorized({ message: "No token" })).pipe(Effect.withSpan("unauthorized"), Effect.ignore)
        yield* Effect.fail(new ServiceUnavailable({ message: "Database down" })).pipe(Effect.withSpan("unavailable"), Effect.ignore)
        yield* Effect.die(new Error("a bug")).pipe(Effect.withSpan("defect"), Effect.catchAllDefect(() => Effect.void))
      }))

      for (const name of ["client", "unauthorized"]) {
        expect(ended(name)?.status.code, name).toBe(SpanStatusCode.UNSET)
        expect(exceptionsOf([ended(name)!]), name).toEqual([])
      }
      for (const name of ["unavailable", "defect"]) {
        expect(ended(name)?.status.code, name).toBe(SpanStatusCode.ERROR)
        expect(ended(name)?.events.some((event) => event.attributes?.["exception.stacktrace"] !== undefined), name).toBe(true)
        expect(ended(name)?.attributes["code.stacktrace"], name).toBeDefined()
      }
    }))

  it.effect("a server span that answered 5xx has status ERROR; one that answered 4xx has it unset", () =>
    Effect.gen(function*() {
      const ended = yield* traced(Effect.forEach([503, 404, 200], (status) =>
        Effect.useSpan(`answer ${status}`, { kind: "server" }, (span) => Effect.sync(() => span.attribute("http.response.status_code", status)))))
      expect(ended("answer 503")?.status).toMatchObject({ code: SpanStatusCode.ERROR })
      expect(ended("answer 404")?.status.code).toBe(SpanStatusCode.UNSET)
      expect(ended("answer 200")?.status.code).toBe(SpanStatusCode.OK)
    }))
})
