import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpApiScalar, HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer, List, Logger, LogLevel, Schema } from "effect"
import { Text } from "@tks/domain/text"
import { accessLog } from "../../src/http/access-log.js"
import { EdgeLive } from "../../src/http/edge.js"
import { routesOfApi } from "../../src/http/method-not-allowed.js"
import { createHttpServer } from "../../src/http/node-server.js"

/**
 * A small server behind the real edge middleware, without a database: a
 * probe API (a list of any size, a body echo, a failure), a defect route and
 * the docs page. `env` overrides the environment the edge reads.
 */
class ProbeGroup extends HttpApiGroup.make("probe")
  .add(
    HttpApiEndpoint.get("items", "/probe/items")
      .setUrlParams(Schema.Struct({ n: Schema.NumberFromString }))
      .addSuccess(Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String })) }))
  )
  .add(
    HttpApiEndpoint.post("echo", "/probe/echo")
      .setPayload(Schema.Struct({ text: Text }))
      .addSuccess(Schema.Struct({ length: Schema.Number }))
  )
  .add(HttpApiEndpoint.get("logs", "/probe/log").addSuccess(Schema.Struct({ ok: Schema.Boolean })))
{}
export class ProbeApi extends HttpApi.make("probe").add(ProbeGroup) {}

const ProbeHandlers = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers
    .handle("items", ({ urlParams }) =>
      Effect.succeed({
        data: Array.from({ length: urlParams.n }, (_, i) => ({ id: `item_${i}`, name: `Item number ${i}` }))
      }))
    .handle("echo", ({ payload }) => Effect.succeed({ length: payload.text.length }))
    .handle("logs", () => Effect.logWarning("inside the handler").pipe(Effect.as({ ok: true }))))

const DefectRoute = HttpLayerRouter.use((router) =>
  router.add("GET", "/defect", Effect.dieMessage("boom").pipe(Effect.as(HttpServerResponse.empty()))))

const Docs = HttpApiScalar.layerHttpLayerRouter({ api: ProbeApi, path: "/docs" })

/** Every log line the server wrote, with its annotations. */
export const capturedLogs: Array<{ readonly message: string; readonly annotations: Record<string, unknown> }> = []

const CaptureLogger = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, message }) => {
    const text = List.isList(message) ? List.toArray(message).map(String).join(" ") : Array.isArray(message) ? message.map(String).join(" ") : String(message)
    const record: Record<string, unknown> = {}
    for (const [key, value] of annotations) record[key] = value
    capturedLogs.push({ message: text, annotations: record })
  })
)

export const probeServer = (env: Record<string, string> = {}, options: { readonly tracing?: boolean } = {}) =>
  HttpLayerRouter.serve(
    Layer.mergeAll(
      HttpLayerRouter.addHttpApi(ProbeApi).pipe(Layer.provide(ProbeHandlers)),
      DefectRoute,
      Docs,
      EdgeLive({ routes: [...routesOfApi(ProbeApi), { method: "GET", path: "/defect" }, { method: "GET", path: "/docs" }], docsPaths: ["/docs"] })
    ),
    { disableListenLog: true, disableLogger: true, middleware: accessLog }
  ).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(options.tracing === false ? Layer.setTracerEnabled(false) : Layer.empty),
    Layer.provide(CaptureLogger),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Info)),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))).pipe(
      ConfigProvider.orElse(() => ConfigProvider.fromEnv())
    )))
  )
