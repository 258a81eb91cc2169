import { connect, createServer, type Socket } from "node:net"
import { Effect, Redacted, type Scope } from "effect"

export interface BlackholeProxy {
  /** The target URL with host and port pointing at the proxy. */
  readonly url: Redacted.Redacted
  /**
   * From now on forward nothing: open connections go silent for good (their
   * bytes are swallowed, the sockets stay open) and new ones are accepted and
   * held. That is a network that loses packets without resetting anything.
   */
  readonly blackhole: Effect.Effect<void>
  /** New connections are forwarded again; connections silenced before stay dead. */
  readonly restore: Effect.Effect<void>
}

interface Pair {
  readonly client: Socket
  upstream: Socket | undefined
  silent: boolean
}

/** A TCP proxy on 127.0.0.1 in front of `target`'s host and port. */
export const startBlackholeProxy = (target: Redacted.Redacted): Effect.Effect<BlackholeProxy, never, Scope.Scope> =>
  Effect.gen(function*() {
    const targetUrl = new URL(Redacted.value(target))
    const pairs = new Set<Pair>()
    let holing = false

    const server = createServer((client) => {
      const pair: Pair = { client, upstream: undefined, silent: holing }
      pairs.add(pair)
      client.on("error", () => {})
      client.on("close", () => {
        pair.upstream?.destroy()
        pairs.delete(pair)
      })
      if (pair.silent) return
      const upstream = connect(Number(targetUrl.port || 5432), targetUrl.hostname)
      pair.upstream = upstream
      upstream.on("error", () => client.destroy())
      upstream.on("close", () => client.destroy())
      client.on("data", (bytes) => {
        if (!pair.silent) upstream.write(bytes)
      })
      upstream.on("data", (bytes) => {
        if (!pair.silent) client.write(bytes)
      })
    })

    const port = yield* Effect.acquireRelease(
      Effect.async<number>((resume) => {
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resume(typeof address === "object" && address !== null ? Effect.succeed(address.port) : Effect.die("no port"))
        })
      }),
      () =>
        Effect.async<void>((resume) => {
          for (const pair of pairs) {
            pair.client.destroy()
            pair.upstream?.destroy()
          }
          server.close(() => resume(Effect.void))
        })
    )

    const proxied = new URL(targetUrl)
    proxied.hostname = "127.0.0.1"
    proxied.port = String(port)
    return {
      url: Redacted.make(proxied.toString()),
      blackhole: Effect.sync(() => {
        holing = true
        for (const pair of pairs) pair.silent = true
      }),
      restore: Effect.sync(() => {
        holing = false
      })
    }
  })
