import { Effect, Option } from "effect"
import { WebhookConfig } from "@tks/adapters/webhooks/sender"
import { AppLinksConfig } from "@tks/core/notifications/app-links"
import { DatabaseConfig } from "@tks/db/config"
import { ServerConfig } from "../config.js"
import { MetricsConfig } from "../observability/metrics.js"
import { PortUnavailable, probePort } from "./port.js"

/**
 * What must hold before anything is opened, migrated or seeded: every
 * setting reads (a bad value stops the start naming its variable), and the
 * HTTP port can be bound (and is not the metrics port).
 */
export const preflight = Effect.gen(function*() {
  const config = yield* ServerConfig
  yield* DatabaseConfig
  // Read here too, for a server whose workers are off (WORKERS=0): the links are checked before anything else.
  yield* AppLinksConfig
  // WEBHOOK_ALLOW_PRIVATE_TARGETS is refused in production before anything is opened.
  yield* WebhookConfig
  const metrics = yield* MetricsConfig
  if (Option.contains(metrics.port, config.port)) {
    return yield* new PortUnavailable({ message: `METRICS_PORT must differ from PORT (${config.port}): metrics have their own listener, never the API's` })
  }
  yield* probePort(config.host, config.port)
  return config
})
