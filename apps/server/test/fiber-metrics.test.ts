import { HttpLayerRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Metric } from "effect"
import { createHttpServer } from "../src/http/node-server.js"
import { withoutFiberMetrics } from "../src/observability/fiber-metrics.js"

// The runtime's own counter (the same key reaches the same global counter).
const fibersStarted = Metric.counter("effect_fiber_started", { incremental: true })

/** Fibers the runtime counted as started while a server answered 10 requests. */
const countedWhileServing = (wrap: <A, E, R>(program: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) =>
  wrap(Effect.gen(function*() {
    const routes = HttpLayerRouter.use((router) => router.add("GET", "/ok", Effect.succeed(HttpServerResponse.text("ok"))))
    const server = HttpLayerRouter.serve(routes, { disableListenLog: true, disableLogger: true }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" }))
    )
    return yield* Effect.gen(function*() {
      const address = yield* HttpServer.addressWith((address) => Effect.succeed(address))
      const port = address._tag === "TcpAddress" ? address.port : 0
      const before = (yield* Metric.value(fibersStarted)).count
      for (let i = 0; i < 10; i++) {
        yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/ok`).then((response) => response.text()))
      }
      return (yield* Metric.value(fibersStarted)).count - before
    }).pipe(Effect.provide(server), Effect.scoped)
  }))

describe("Effect's fiber metrics are off in the service's processes", () => {
  it.live("under withoutFiberMetrics a server's request fibers are not counted; without it, each request's are", () =>
    Effect.gen(function*() {
      expect(yield* countedWhileServing((program) => program)).toBeGreaterThanOrEqual(10)
      expect(yield* countedWhileServing(withoutFiberMetrics)).toBe(0)
    }))
})
