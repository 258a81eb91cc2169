import { Context, Effect, Layer } from "effect"
import { SharedDatabaseUrl } from "../../../apps/server/test/support/shared-database.js"
import { startReference } from "../../bench/reference/server.js"

export interface SentStatement {
  readonly text: string
  readonly params: ReadonlyArray<unknown>
}

export interface RunningReference {
  readonly url: string
  readonly named: boolean
  /** Collects the statements the reference sends from now on; null stops collecting. */
  readonly collectInto: (statements: Array<SentStatement> | null) => void
}

export class ReferenceServer extends Context.Tag("scripts/test/ReferenceServer")<ReferenceServer, RunningReference>() {}

/**
 * The bench's reference server in this process, on the test's shared
 * database, configured as the test's server reads its environment:
 * PUBLIC_URL (default http://localhost:$PORT, PORT 3000), RATE_LIMIT_PER_MINUTE
 * (600) and CURSOR_SECRET (else the one the server stored).
 */
export const ReferenceServerLive = Layer.scoped(
  ReferenceServer,
  Effect.gen(function*() {
    const url = yield* SharedDatabaseUrl
    let sink: Array<SentStatement> | null = null
    const env = process.env
    const reference = yield* Effect.acquireRelease(
      Effect.promise(() =>
        startReference({
          url,
          host: "127.0.0.1",
          port: 0,
          publicUrl: (env["PUBLIC_URL"] ?? `http://localhost:${env["PORT"] ?? 3000}`).replace(/\/+$/, ""),
          requestsPerMinute: Number(env["RATE_LIMIT_PER_MINUTE"] ?? 600),
          cursorSecret: env["CURSOR_SECRET"],
          poolMax: 4,
          statementTimeoutMs: 15_000,
          named: "auto",
          onStatement: (text, params) => sink?.push({ text, params })
        })
      ),
      (reference) => Effect.promise(() => reference.close())
    )
    return { url: reference.url, named: reference.named, collectInto: (statements) => void (sink = statements) }
  })
)
