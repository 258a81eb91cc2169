import { HttpLayerRouter, HttpMiddleware, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
const Routes = HttpLayerRouter.use((router) => router.add("GET", "/health", HttpServerResponse.unsafeJson({ status: "ok" })))
const mode = process.env.MODE ?? "bare"
const Server = HttpLayerRouter.serve(Routes, { disableListenLog: true, disableLogger: true }).pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" })),
  Layer.provide(Layer.setTracerEnabled(false)),
  Layer.provide(Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true))
)
NodeRuntime.runMain(Layer.launch(Server))
