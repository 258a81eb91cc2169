import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Schema } from "effect"
import { EdgeLive } from "../src/http/edge.js"
import { routesOfApi } from "../src/http/method-not-allowed.js"
import { createHttpServer } from "../src/http/node-server.js"
import { raw } from "./support/server.js"

// No /v1 endpoint takes a body yet, so a probe API with one exercises the
// framework paths the middleware re-shapes: malformed JSON, a body of the
// wrong shape, and a defect.
class ProbeGroup extends HttpApiGroup.make("probe").add(
  HttpApiEndpoint.post("echo", "/probe").setPayload(Schema.Struct({ n: Schema.Number })).addSuccess(
    Schema.Struct({ n: Schema.Number })
  )
) {}
class ProbeApi extends HttpApi.make("probe").add(ProbeGroup) {}

const ProbeHandlers = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers.handle("echo", ({ payload }) => Effect.succeed(payload)))
const DefectRoute = HttpLayerRouter.use((router) =>
  router.add("GET", "/defect", Effect.dieMessage("boom").pipe(Effect.as(HttpServerResponse.empty()))))

const ProbeEdge = EdgeLive({ routes: [...routesOfApi(ProbeApi), { method: "GET", path: "/defect" }], docsPaths: [] })

const ProbeServer = HttpLayerRouter.serve(
  Layer.mergeAll(HttpLayerRouter.addHttpApi(ProbeApi).pipe(Layer.provide(ProbeHandlers)), DefectRoute, ProbeEdge),
  { disableLogger: true, disableListenLog: true }
).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

layer(ProbeServer, { excludeTestServices: true })("error bodies the framework would otherwise write", (it) => {
  describe("bodies", () => {
    it.effect("malformed JSON is 400 MALFORMED_JSON with a JSON body", () =>
      Effect.gen(function*() {
        const response = yield* raw("POST", "/probe", { body: "{\"n\": 1" })
        expect(response.status).toBe(400)
        expect(response.json).toMatchObject({ code: "MALFORMED_JSON", message: expect.any(String) })
      }))

    it.effect("a body of the wrong shape is 400 VALIDATION_ERROR naming the field", () =>
      Effect.gen(function*() {
        const response = yield* raw("POST", "/probe", { body: "{\"n\": \"one\"}" })
        expect(response.status).toBe(400)
        expect(response.json).toMatchObject({ code: "VALIDATION_ERROR", issues: [{ path: "n" }] })
        expect(response.json.message).toContain("n")
      }))

    it.effect("a well-formed body passes through untouched", () =>
      Effect.gen(function*() {
        const response = yield* raw("POST", "/probe", { body: "{\"n\": 7}" })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({ n: 7 })
      }))

    it.effect("a defect is 500 INTERNAL_ERROR with a JSON body, never an empty one", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/defect")
        expect(response.status).toBe(500)
        expect(response.json).toMatchObject({ code: "INTERNAL_ERROR", message: expect.any(String) })
      }))
  })
})
