import { HttpLayerRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, List, Logger, LogLevel } from "effect"
import { accessLog } from "../src/http/access-log.js"
import { createHttpServer } from "../src/http/node-server.js"

interface Line {
  readonly message: string
  readonly level: string
  readonly annotations: Record<string, unknown>
  readonly spans: ReadonlyArray<string>
  readonly cause: string
}

// Routes with no edge in front: what reaches the access log is the router's own answer or failure.
const Routes = HttpLayerRouter.use((router) =>
  Effect.all([
    router.add("GET", "/ok", Effect.succeed(HttpServerResponse.text("ok"))),
    router.add(
      "GET",
      "/logs",
      Effect.logInfo("inside the handler").pipe(Effect.annotateLogs("inner", "yes"), Effect.as(HttpServerResponse.text("logged", { status: 201 })))
    ),
    router.add("GET", "/fails", Effect.fail("refused")),
    router.add("GET", "/dies", Effect.dieMessage("boom")),
    router.add("GET", "/interrupted", Effect.interrupt),
    // A failure that is itself an answer: the platform strips it from the cause.
    router.add("GET", "/answers", Effect.fail(HttpServerResponse.text("teapot", { status: 418 })))
  ])
)

/** Serves Routes with the given access log and answers the lines logged for the requests. */
const linesFor = (middleware: "platform" | "ours") =>
  Effect.gen(function*() {
    const lines: Array<Line> = []
    const capture = Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ annotations, cause, logLevel, message, spans }) => {
        const record: Record<string, unknown> = {}
        for (const [key, value] of annotations) record[key] = value
        lines.push({
          message: (Array.isArray(message) ? message : [message]).map(String).join(" "),
          level: logLevel.label,
          annotations: record,
          // The platform numbers its span per request (http.span.N); ours has one fixed name.
          spans: List.toArray(spans).map((span) => span.label.replace(/^http\.span\.\d+$/, "http.span.N")),
          cause: cause._tag
        })
      })
    )
    const server = HttpLayerRouter.serve(
      Routes,
      middleware === "platform" ? { disableListenLog: true } : { disableListenLog: true, disableLogger: true, middleware: accessLog }
    ).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
      Layer.provide(capture),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Info))
    )
    const statuses = yield* Effect.gen(function*() {
      const address = yield* HttpServer.addressWith((address) => Effect.succeed(address))
      const port = address._tag === "TcpAddress" ? address.port : 0
      const answers: Array<number> = []
      for (const path of ["/ok", "/logs", "/fails", "/dies", "/interrupted", "/answers", "/nowhere?x=1"]) {
        answers.push(yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}${path}`).then((response) => response.status)))
      }
      return answers
    }).pipe(Effect.provide(server), Effect.scoped)
    return { statuses, lines }
  })

describe("the access log writes the platform logger's lines, with one span name for every request", () => {
  it.live("same lines for a success, a handler's own line, a failure, a defect, an interruption, a failure that is an answer and an unknown route", () =>
    Effect.gen(function*() {
      const platform = yield* linesFor("platform")
      const ours = yield* linesFor("ours")
      expect(ours.statuses).toEqual([200, 201, 500, 500, 503, 418, 404])
      expect(ours.statuses).toEqual(platform.statuses)
      const platformNamed = platform.lines.map((line) => ({ ...line, spans: line.spans.map((label) => label === "http.span.N" ? "http.request" : label) }))
      expect(platform.lines.some((line) => line.spans.includes("http.span.N"))).toBe(true)
      expect(ours.lines).toEqual(platformNamed)
      expect(ours.lines.filter((line) => line.annotations["http.status"] !== undefined).map((line) => [line.annotations["http.url"], line.annotations["http.status"]]))
        .toEqual([["/ok", 200], ["/logs", 201], ["/fails", 500], ["/dies", 500], ["/interrupted", 503], ["/answers", 418], ["/nowhere?x=1", 404]])
      const inner = ours.lines.find((line) => line.message === "inside the handler")
      expect(inner?.spans).toEqual(["http.request"])
      expect(inner?.annotations).toEqual({ inner: "yes" })
    }))

})
