import { Config } from "effect"

/** The HTTP listener: PORT (default 3000), HOST (default 0.0.0.0), PUBLIC_URL (how callers reach it). */
export const ServerConfig = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
  publicUrl: Config.option(Config.string("PUBLIC_URL")),
  seedDemo: Config.boolean("SEED_DEMO").pipe(Config.withDefault(true))
})
