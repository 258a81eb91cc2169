import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/** What a stand-in collector was sent: each request's path and body. */
export interface Collected {
  readonly path: string
  readonly body: string
}

/** A stand-in OTLP/HTTP collector on loopback that keeps what it is sent, for the scope. */
export const collector = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly bodies: Array<Collected>; readonly close: () => void }>((resume) => {
    const bodies: Array<Collected> = []
    const server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        bodies.push({ path: request.url ?? "", body })
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        bodies,
        close: () => server.close()
      })))
  }),
  (collector) => Effect.sync(() => collector.close())
)
