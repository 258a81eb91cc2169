import { createServer } from "node:http"
import { HttpLayerRouter } from "@effect/platform"
import { NodeContext, NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Option } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { CoreLive } from "@tks/core/live"
import { DatabaseLive } from "@tks/db/client"
import { DatabaseHealth } from "@tks/db/health"
import { EmbeddedMaintenanceLive } from "@tks/db/maintenance"
import { MigrationsLive } from "@tks/db/migrate"
import { ServerConfig } from "./config.js"
import { HttpRoutes } from "./http/routes.js"
import { LoggingLive } from "./observability/logging.js"
import { TracingLive } from "./observability/tracing.js"
import { banner } from "./startup/banner.js"
import { DemoSeedLive, DemoTokens } from "./startup/demo.js"

/** The composition root: one process serving HTTP over the database; shuts down cleanly on SIGINT/SIGTERM. */
const main = Effect.gen(function*() {
  const config = yield* ServerConfig
  // Migrations run before any service touches the database.
  const Database = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))
  const Services = Layer.merge(DemoSeedLive(config.seedDemo), EmbeddedMaintenanceLive).pipe(
    Layer.provide(NodeContext.layer),
    Layer.provideMerge(Layer.mergeAll(CoreLive, DatabaseHealth.Default, FixtureImporter.Default)),
    Layer.provideMerge(Database)
  )
  // The listener opens only once every service is built: a request that
  // arrived before the router was attached would hang, not wait.
  const Server = HttpLayerRouter.serve(HttpRoutes, { disableListenLog: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host })),
    Layer.provideMerge(Services)
  )
  return yield* Effect.gen(function*() {
    const tokens = yield* DemoTokens
    const url = Option.getOrElse(config.publicUrl, () => `http://localhost:${config.port}`)
    yield* Console.log(banner(url, tokens))
    return yield* Effect.never
  }).pipe(Effect.provide(Server))
})

main.pipe(Effect.provide(Layer.mergeAll(LoggingLive, TracingLive)), NodeRuntime.runMain({ disablePrettyLogger: true }))
