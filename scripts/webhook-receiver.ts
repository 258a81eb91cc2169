import { createServer } from "node:http"
import { Webhook } from "standardwebhooks"

/**
 * `npm run webhook-receiver` with `TKS_WEBHOOK_SECRET=whsec_…` (and `PORT`,
 * 8080 by default): a receiver for trying webhooks on this machine, as the
 * README's walk-through does. Each POST is verified with the Standard
 * Webhooks reference library, exactly as a real receiver would: a delivery
 * that verifies is printed (type, position, id, data) and answered 204, one
 * already seen under its `webhook-id` (a retry or a replay) is marked as a
 * repeat, and one that does not verify is printed with the reason and
 * answered 400. The service only delivers to this machine when started
 * with `WEBHOOK_ALLOW_PRIVATE_TARGETS=true`.
 */
const secret = process.env["TKS_WEBHOOK_SECRET"]
if (secret === undefined || !secret.startsWith("whsec_")) {
  console.error("TKS_WEBHOOK_SECRET must be the endpoint's secret (whsec_…), as its creation or rotation answered it")
  process.exit(2)
}
const webhook = new Webhook(secret)
const port = Number(process.env["PORT"] ?? "8080")
const seen = new Set<string>()

const server = createServer((request, response) => {
  if (request.method !== "POST") {
    response.writeHead(405, { allow: "POST" }).end()
    return
  }
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8")
    let event: { id: string; type: string; position?: number; data: unknown }
    try {
      event = webhook.verify(body, request.headers as Record<string, string>) as typeof event
    } catch (error) {
      console.log(`REFUSED ${request.headers["webhook-id"] ?? "(no webhook-id)"}: ${(error as Error).message}`)
      response.writeHead(400).end()
      return
    }
    const repeat = seen.has(event.id) ? " (a repeat of a delivery already received)" : ""
    seen.add(event.id)
    console.log(`verified ${event.type} position=${event.position ?? "-"} webhook-id=${event.id}${repeat}`)
    console.log(`  data: ${JSON.stringify(event.data)}`)
    response.writeHead(204).end()
  })
})

server.listen(port, "127.0.0.1", () => console.log(`webhook receiver on http://127.0.0.1:${port}/ (verifying with the endpoint's secret)`))
process.on("SIGINT", () => server.close(() => process.exit(0)))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
