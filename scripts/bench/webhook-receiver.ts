import { createServer } from "node:http"

/**
 * The bench's webhook receiver, its own process (so its work is not the
 * server's): answers every POST 204 at once, counts deliveries and distinct
 * `webhook-id`s, and notes when the first and the last arrived.
 * GET /health answers when it is up; GET /stats answers the counts as JSON.
 * Listens on 127.0.0.1:PORT.
 */
const seen = new Set<string>()
let deliveries = 0
let first = 0
let last = 0

const server = createServer((request, response) => {
  if (request.method === "POST") {
    request.resume()
    request.on("end", () => {
      const now = Date.now()
      deliveries++
      const id = request.headers["webhook-id"]
      if (typeof id === "string") seen.add(id)
      if (first === 0) first = now
      last = now
      response.writeHead(204).end()
    })
    return
  }
  const body = request.url === "/stats" ? JSON.stringify({ deliveries, distinct: seen.size, first, last }) : "{}"
  response.writeHead(200, { "content-type": "application/json" }).end(body)
})
server.keepAliveTimeout = 60_000
server.listen(Number(process.env["PORT"]), "127.0.0.1")
process.on("SIGTERM", () => server.close(() => process.exit(0)))
