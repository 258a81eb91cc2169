import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/**
 * An HTTP server on 127.0.0.1 only, standing in for a public site: the fake
 * resolver points `public.test` at it. It records every request it receives,
 * so a test can show that a refused target (localhost, a mapped loopback
 * address, a credentials redirect...) never reached it.
 */

export interface ReceivedRequest {
  readonly path: string
  readonly host: string
}

export type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void

export interface LoopbackServer {
  readonly port: number
  /** Every request, in arrival order. */
  readonly received: ReadonlyArray<ReceivedRequest>
  /** Paths only (with the query), in arrival order. */
  readonly paths: () => ReadonlyArray<string>
}

export const loopbackServer = (routes: Record<string, Handler>) =>
  Effect.acquireRelease(
    Effect.async<{ server: ReturnType<typeof createServer>; state: LoopbackServer }>((resume) => {
      const received: Array<ReceivedRequest> = []
      const server = createServer((request, response) => {
        const url = new URL(request.url ?? "/", "http://loopback")
        received.push({ path: `${url.pathname}${url.search}`, host: request.headers.host ?? "" })
        const route = routes[url.pathname]
        if (route === undefined) {
          response.writeHead(404, { "content-type": "text/plain" }).end("no such page")
          return
        }
        route(request, response, url)
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, state: { port, received, paths: () => received.map((r) => r.path) } }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        // Requests a test left hanging (slow bodies) must not keep the server open.
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ state }) => state))

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export const closedPort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})
