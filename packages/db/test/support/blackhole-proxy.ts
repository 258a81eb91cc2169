import { connect, createServer, type Socket } from "node:net"
import { join } from "node:path"
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
  /**
   * From now on refuse: open connections are closed and the port stops
   * listening, so connection attempts fail at once (ECONNREFUSED). That is a
   * database server that was stopped.
   */
  readonly refuse: Effect.Effect<void>
  /**
   * New connections are forwarded again (on the same port after `refuse`);
   * connections silenced before stay dead.
   */
  readonly restore: Effect.Effect<void>
  /**
   * Once: the next connection whose client sends `marker` (a statement's
   * text) is closed, both ways, before those bytes are forwarded. That is a
   * connection lost in the middle of a request, at a chosen statement.
   */
  readonly cutOn: (marker: string) => Effect.Effect<void>
}

interface Pair {
  readonly client: Socket
  upstream: Socket | undefined
  silent: boolean
}

// Where `pg` would connect for this URL: a Unix socket (host=/dir, the embedded database) or host and port.
const upstreamOf = (url: URL) => {
  const port = Number(url.port || 5432)
  const socketDir = url.searchParams.get("host")
  return socketDir?.startsWith("/")
    ? () => connect(join(socketDir, `.s.PGSQL.${port}`))
    : () => connect(port, url.hostname)
}

/** A TCP proxy on 127.0.0.1 in front of `target`'s server that can black-hole or refuse. */
export const startBlackholeProxy = (target: Redacted.Redacted): Effect.Effect<BlackholeProxy, never, Scope.Scope> =>
  Effect.gen(function*() {
    const targetUrl = new URL(Redacted.value(target))
    const connectUpstream = upstreamOf(targetUrl)
    const pairs = new Set<Pair>()
    let holing = false
    let cutMarker: Buffer | undefined

    const server = createServer((client) => {
      const pair: Pair = { client, upstream: undefined, silent: holing }
      pairs.add(pair)
      client.on("error", () => {})
      client.on("close", () => {
        pair.upstream?.destroy()
        pairs.delete(pair)
      })
      if (pair.silent) return
      const upstream = connectUpstream()
      pair.upstream = upstream
      upstream.on("error", () => client.destroy())
      upstream.on("close", () => client.destroy())
      client.on("data", (bytes: Buffer) => {
        if (cutMarker !== undefined && bytes.includes(cutMarker)) {
          cutMarker = undefined
          client.destroy()
          upstream.destroy()
          return
        }
        if (!pair.silent) upstream.write(bytes)
      })
      upstream.on("data", (bytes) => {
        if (!pair.silent) client.write(bytes)
      })
    })

    const dropAll = () => {
      for (const pair of pairs) {
        pair.client.destroy()
        pair.upstream?.destroy()
      }
    }

    const port = yield* Effect.acquireRelease(
      Effect.async<number>((resume) => {
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resume(typeof address === "object" && address !== null ? Effect.succeed(address.port) : Effect.die("no port"))
        })
      }),
      () =>
        Effect.async<void>((resume) => {
          dropAll()
          // Called with an error when `refuse` already closed it; fine either way.
          server.close(() => resume(Effect.void))
        })
    )

    const proxied = new URL(targetUrl)
    proxied.searchParams.delete("host")
    proxied.hostname = "127.0.0.1"
    proxied.port = String(port)
    return {
      url: Redacted.make(proxied.toString()),
      blackhole: Effect.sync(() => {
        holing = true
        for (const pair of pairs) pair.silent = true
      }),
      refuse: Effect.async<void>((resume) => {
        holing = false
        if (!server.listening) return resume(Effect.void)
        // Stop listening first, so nothing new slips in while the open ones close.
        server.close(() => resume(Effect.void))
        dropAll()
      }),
      cutOn: (marker) =>
        Effect.sync(() => {
          cutMarker = Buffer.from(marker)
        }),
      restore: Effect.async<void>((resume) => {
        holing = false
        if (server.listening) return resume(Effect.void)
        const failed = (error: Error) => resume(Effect.die(error))
        server.once("error", failed)
        server.listen(port, "127.0.0.1", () => {
          server.off("error", failed)
          resume(Effect.void)
        })
      })
    }
  })
