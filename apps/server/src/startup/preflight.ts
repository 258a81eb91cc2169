import { Effect } from "effect"
import { AppLinksConfig } from "@tks/core/notifications/app-links"
import { DatabaseConfig } from "@tks/db/config"
import { ServerConfig } from "../config.js"
import { probePort } from "./port.js"

/**
 * What must hold before anything is opened, migrated or seeded: every
 * setting reads (a bad value stops the start naming its variable), and the
 * HTTP port can be bound.
 */
export const preflight = Effect.gen(function*() {
  const config = yield* ServerConfig
  yield* DatabaseConfig
  // Read here too, for a server whose workers are off (WORKERS=0): the links are checked before anything else.
  yield* AppLinksConfig
  yield* probePort(config.host, config.port)
  return config
})
