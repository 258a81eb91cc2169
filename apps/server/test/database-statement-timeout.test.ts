import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpLayerRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlError } from "@effect/sql/SqlError"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Schema } from "effect"
import { BadRequest, ServiceUnavailable } from "@tks/domain/errors"
import { EdgeLive } from "../src/http/edge.js"
import { withInfrastructureErrors } from "../src/http/infrastructure-errors.js"
import { routesOfApi } from "../src/http/method-not-allowed.js"
import { createHttpServer } from "../src/http/node-server.js"
import { raw } from "./support/server.js"

/**
 * A statement PostgreSQL cancelled (SQLSTATE 57014) is not the database
 * being away: a statement timeout is 503 DATABASE_TIMEOUT with Retry-After,
 * a cancel on user request a logged 500. Probe routes fail the way the
 * driver reports each, through the handlers' one mapping.
 */
const cancelled = (message: string) =>
  new SqlError({ message: "Failed to execute statement", cause: Object.assign(new Error(message), { code: "57014", severity: "ERROR" }) })

class ProbeGroup extends HttpApiGroup.make("probe")
  .add(HttpApiEndpoint.get("timeout", "/probe/timeout").addSuccess(Schema.Struct({})))
  .add(HttpApiEndpoint.get("cancel", "/probe/cancel").addSuccess(Schema.Struct({})))
  .addError(BadRequest)
  .addError(ServiceUnavailable)
{}
class ProbeApi extends HttpApi.make("probe").add(ProbeGroup) {}

const ProbeHandlers = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers
    .handle("timeout", () => withInfrastructureErrors(Effect.fail(cancelled("canceling statement due to statement timeout"))))
    .handle("cancel", () => withInfrastructureErrors(Effect.fail(cancelled("canceling statement due to user request")))))

const ProbeServer = HttpLayerRouter.serve(
  Layer.mergeAll(
    HttpLayerRouter.addHttpApi(ProbeApi).pipe(Layer.provide(ProbeHandlers)),
    EdgeLive({ routes: routesOfApi(ProbeApi), docsPaths: [] })
  ),
  { disableLogger: true, disableListenLog: true }
).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

layer(ProbeServer, { excludeTestServices: true })("a cancelled statement over HTTP", (it) => {
  it.effect("a statement timeout is 503 DATABASE_TIMEOUT with Retry-After, not \"the database is unavailable\"", () =>
    Effect.gen(function*() {
      const response = yield* raw("GET", "/probe/timeout")
      expect(response.status).toBe(503)
      expect(response.json).toMatchObject({ _tag: "ServiceUnavailable", code: "DATABASE_TIMEOUT" })
      expect(response.json.message).not.toContain("unavailable")
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0)
    }))

  it.effect("a statement cancelled on user request is a logged 500 INTERNAL_ERROR, not a 503 to retry", () =>
    Effect.gen(function*() {
      const response = yield* raw("GET", "/probe/cancel")
      expect(response.status).toBe(500)
      expect(response.json).toMatchObject({ _tag: "InternalServerError", code: "INTERNAL_ERROR" })
      expect(response.headers.get("retry-after")).toBeNull()
    }))
})
