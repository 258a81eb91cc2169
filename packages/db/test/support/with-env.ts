import { ConfigProvider, Effect, Layer } from "effect"

/** Builds a layer in the current scope, reading its Config from `env` instead of process.env. */
export const buildWithEnv = <A, E, R>(layer: Layer.Layer<A, E, R>, env: Record<string, string>) =>
  Layer.build(layer).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
