import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { Webhook } from "standardwebhooks"

/**
 * A webhook receiver on 127.0.0.1, as an integrator would run one: it
 * records every POST (path, headers, raw body) and answers as the test
 * scripts it, one answer per request in arrival order. Shared by the
 * adapter, core and server tests.
 */

export interface ReceivedWebhook {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** How to answer one request: a status (with a body and headers, after `delayMs`), or never (the connection is left hanging). */
export type ReceiverAnswer =
  | { readonly status: number; readonly body?: string; readonly headers?: Record<string, string>; readonly delayMs?: number }
  | "hang"

export interface WebhookReceiver {
  readonly port: number
  /** `http://127.0.0.1:<port><path>`. */
  readonly url: (path?: string) => string
  readonly received: ReadonlyArray<ReceivedWebhook>
  /** How the next requests are answered (by their 0-based number among all received); default 204. */
  answerWith: (answer: (n: number, request: ReceivedWebhook) => ReceiverAnswer) => void
  /** Every `webhook-id` received, in order. */
  readonly ids: () => ReadonlyArray<string>
}

export const webhookReceiver = (options: { readonly port?: number } = {}) =>
  Effect.acquireRelease(
    Effect.async<{ server: ReturnType<typeof createServer>; state: WebhookReceiver }>((resume) => {
      const received: Array<ReceivedWebhook> = []
      let answer: (n: number, request: ReceivedWebhook) => ReceiverAnswer = () => ({ status: 204 })
      const server = createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const entry = { path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") }
          received.push(entry)
          const reply = answer(received.length - 1, entry)
          if (reply === "hang") return
          const send = () => response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers }).end(reply.body ?? "")
          if (reply.delayMs === undefined) send()
          else setTimeout(send, reply.delayMs)
        })
      })
      server.listen(options.port ?? 0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          state: {
            port,
            url: (path = "/hooks") => `http://127.0.0.1:${port}${path}`,
            received,
            answerWith: (next) => {
              answer = next
            },
            ids: () => received.map((request) => String(request.headers["webhook-id"]))
          }
        }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        // Hanging requests must not keep the server open.
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ state }) => state))

/** The Standard Webhooks headers of a received request, as the reference library's `verify` takes them. */
const signatureHeadersOf = (request: ReceivedWebhook): Record<string, string> => ({
  "webhook-id": String(request.headers["webhook-id"]),
  "webhook-timestamp": String(request.headers["webhook-timestamp"]),
  "webhook-signature": String(request.headers["webhook-signature"])
})

/** The body as the reference verifier reads it with `secret`; throws when the signature does not verify. */
export const verifiedWith = (secret: string, request: ReceivedWebhook): unknown =>
  new Webhook(secret).verify(request.body, signatureHeadersOf(request))
