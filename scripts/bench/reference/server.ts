import Fastify from "fastify"
import { type Context, HttpError } from "./context.js"
import { loadCursorSecret, makeCursors } from "./cursors.js"
import { type DatabaseOptions, openDatabase } from "./db.js"
import { knowledgeRoutes } from "./routes-knowledge.js"
import { peopleRoutes } from "./routes-people.js"
import { queueRoutes } from "./routes-queue.js"

export interface ReferenceOptions extends DatabaseOptions {
  readonly host: string
  /** 0: any free port. */
  readonly port: number
  /** The server's PUBLIC_URL (its links' base), without a trailing slash. */
  readonly publicUrl: string
  /** The server's RATE_LIMIT_PER_MINUTE. */
  readonly requestsPerMinute: number
  /** The server's CURSOR_SECRET; without it, the one stored in the database. */
  readonly cursorSecret?: string | undefined
}

export interface Reference {
  readonly url: string
  /** Whether statements go out as named prepared statements. */
  readonly named: boolean
  readonly preparedNames: () => number
  readonly close: () => Promise<void>
}

/**
 * The reference server of the side-by-side bench: fastify and pg answering
 * the hot endpoints with the statements our server sends (./statements) and
 * the same response bodies, so what our server costs beyond it is the
 * framework's. Never part of the product.
 */
export const startReference = async (options: ReferenceOptions): Promise<Reference> => {
  const db = await openDatabase(options)
  const secret = await loadCursorSecret(db, options.cursorSecret)
  const ctx: Context = {
    db,
    cursors: makeCursors(secret),
    link: (collection, id) => `${options.publicUrl}/v1/${collection}/${encodeURIComponent(id)}`,
    requestsPerMinute: options.requestsPerMinute
  }
  const app = Fastify({ logger: false })
  app.setErrorHandler((error, _request, reply) => {
    const status = error instanceof HttpError ? error.status : 500
    return reply.status(status).send({ message: error instanceof Error ? error.message : String(error) })
  })
  app.get("/health", async () => ({ status: "ok" }))
  peopleRoutes(app, ctx)
  knowledgeRoutes(app, ctx)
  queueRoutes(app, ctx)
  await app.listen({ host: options.host, port: options.port })
  const address = app.server.address()
  const port = typeof address === "object" && address !== null ? address.port : options.port
  return {
    url: `http://${options.host}:${port}`,
    named: db.named,
    preparedNames: db.preparedNames,
    close: async () => {
      await app.close()
      await db.end()
    }
  }
}
