import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/**
 * A loopback HTTP server (127.0.0.1, a free port) that stands in for a remote
 * service: each test scripts the answer and reads back what was asked.
 * Released with its scope: open connections are cut and pending delays cleared.
 */
export interface RecordedRequest {
  readonly method: string
  /** Path and query, as sent. */
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export interface ScriptedReply {
  readonly status: number
  readonly body?: string
  readonly headers?: Readonly<Record<string, string>>
  /** Wait this long before answering (a slow remote). */
  readonly delayMs?: number
}

export interface ScriptedServer {
  readonly baseUrl: string
  readonly requests: ReadonlyArray<RecordedRequest>
  /** Replace the script; the next requests get answers from it. */
  readonly answer: (script: (request: RecordedRequest) => ScriptedReply) => void
}

export const json = (status: number, value: unknown): ScriptedReply => ({
  status,
  body: JSON.stringify(value),
  headers: { "content-type": "application/json" }
})

export const scriptedServer = (initial: (request: RecordedRequest) => ScriptedReply) =>
  Effect.acquireRelease(
    Effect.async<{ server: ReturnType<typeof createServer>; state: ScriptedServer; timers: Set<NodeJS.Timeout> }>(
      (resume) => {
        const requests: Array<RecordedRequest> = []
        const timers = new Set<NodeJS.Timeout>()
        let script = initial
        const server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (chunk: Buffer) => chunks.push(chunk))
          req.on("end", () => {
            const request: RecordedRequest = {
              method: req.method ?? "",
              url: req.url ?? "",
              headers: req.headers,
              body: Buffer.concat(chunks).toString("utf8")
            }
            requests.push(request)
            const reply = script(request)
            const send = () => {
              res.writeHead(reply.status, reply.headers ?? {})
              res.end(reply.body ?? "")
            }
            if (reply.delayMs === undefined) return send()
            const timer = setTimeout(() => {
              timers.delete(timer)
              send()
            }, reply.delayMs)
            timers.add(timer)
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as AddressInfo
          const state: ScriptedServer = {
            baseUrl: `http://127.0.0.1:${port}`,
            requests,
            answer: (next) => {
              script = next
            }
          }
          resume(Effect.succeed({ server, state, timers }))
        })
      }
    ),
    ({ server, timers }) =>
      Effect.async<void>((resume) => {
        for (const timer of timers) clearTimeout(timer)
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ state }) => state))
