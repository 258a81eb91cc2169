import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { Predicate } from "effect"
import { genericErrorBody } from "./error-response.js"
import { requestIdFor } from "./request-id.js"
import { COMMON_SECURITY_HEADERS } from "./security-headers.js"

/**
 * The Node HTTP server the service listens with (pass it to
 * `NodeHttpServer.layer(createHttpServer, { port, host })`).
 *
 * Node's HTTP parser refuses some requests before any Effect code runs: a
 * request line or header block over 16 KB (431), a malformed request (400),
 * a request that arrived too slowly (408). Left to itself it answers them
 * with an empty body; this `clientError` handler sends
 * the JSON error body, a request id and the security headers instead.
 */
export const createHttpServer = (): Server => {
  const server = createServer()
  server.on("clientError", answerClientError)
  server.on("request", countInFlight)
  return server
}

let inFlight = 0
const requestEnded = () => {
  inFlight--
}
const countInFlight = (_request: IncomingMessage, response: ServerResponse) => {
  inFlight++
  response.once("close", requestEnded)
}

/**
 * The requests this process's listeners have taken and not yet answered (or
 * lost the caller of): what a shutdown waits for, and says it waited for.
 */
export const requestsInFlight = (): number => inFlight

const statusFor = (code: string | undefined): number => {
  if (code === "HPE_HEADER_OVERFLOW") return 431
  if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "HPE_REQUEST_TIMEOUT") return 408
  return 400
}

/** The raw HTTP/1.1 answer to a request Node's parser refused. */
const clientErrorAnswer = (code: string | undefined): string => {
  const status = statusFor(code)
  const requestId = requestIdFor(undefined)
  const body = JSON.stringify({ requestId, ...genericErrorBody(status) })
  const headers: Record<string, string> = {
    ...COMMON_SECURITY_HEADERS,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "x-request-id": requestId,
    connection: "close"
  }
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n${head}\r\n${body}`
}

// A response already under way on this socket must not be interleaved with ours.
const responseStarted = (socket: Duplex): boolean => {
  const message: unknown = Predicate.hasProperty(socket, "_httpMessage") ? socket._httpMessage : undefined
  return Predicate.hasProperty(message, "headersSent") && message.headersSent === true
}

const answerClientError = (error: Error, socket: Duplex): void => {
  const code = Predicate.hasProperty(error, "code") && typeof error.code === "string" ? error.code : undefined
  if (code === "ECONNRESET" || !socket.writable || responseStarted(socket)) {
    socket.destroy()
    return
  }
  socket.end(clientErrorAnswer(code))
}
