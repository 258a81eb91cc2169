import type { PGlite } from "@electric-sql/pglite"
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket"

interface Queued {
  readonly handlerId: number
  readonly message: Uint8Array
  readonly onData: (data: Uint8Array) => void
  readonly resolve: (bytes: number) => void
  readonly reject: (error: unknown) => void
}

// Extended-query messages (Parse, Bind, Describe, Execute, Close, Flush) open
// a batch that the connection's Sync ends; a simple Query ('Q') stands alone.
const OPENS_BATCH = new Set(["P", "B", "D", "E", "C", "H"].map((c) => c.charCodeAt(0)))
const ENDS_BATCH = new Set(["S", "Q"].map((c) => c.charCodeAt(0)))

/**
 * The query queue of pglite-socket 0.2.17, corrected. PGlite is one backend
 * session shared by every socket; pglite-socket runs protocol messages one
 * at a time but takes the next from any connection between a connection's
 * Parse, Bind and Execute. Queries that queued up behind a transaction then
 * interleave: they share the session's one unnamed statement and portal, so
 * one connection gets another's rows, an empty answer, or an error (seen:
 * two workers claiming a job concurrently both "won" it).
 *
 * This queue keeps the session with one connection from the first message
 * of an extended-query batch to its Sync, and (as pglite-socket does) for
 * the whole of a transaction. It also keeps going after a message fails,
 * where the original stopped serving every connection.
 */
class SessionQueue {
  private readonly queue: Array<Queued> = []
  private processing = false
  /** The connection holding the session (an open batch or transaction), if any. */
  private owner: number | null = null
  private readonly inBatch = new Set<number>()

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject })
      void this.processQueue()
    })
  }

  private next(): Queued | undefined {
    if (this.owner === null) return this.queue.shift()
    const at = this.queue.findIndex((queued) => queued.handlerId === this.owner)
    return at === -1 ? undefined : this.queue.splice(at, 1)[0]
  }

  private async processQueue(): Promise<void> {
    if (this.processing) return
    this.processing = true
    try {
      for (let item = this.next(); item !== undefined; item = this.next()) {
        const current = item
        let bytes = 0
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data) => {
                bytes += data.length
                current.onData(data)
              }
            })
          )
          current.resolve(bytes)
        } catch (error) {
          current.reject(error)
        }
        const type = current.message[0] ?? 0
        if (OPENS_BATCH.has(type)) this.inBatch.add(current.handlerId)
        if (ENDS_BATCH.has(type)) this.inBatch.delete(current.handlerId)
        this.owner = this.inBatch.has(current.handlerId) || this.db.isInTransaction() ? current.handlerId : null
      }
    } finally {
      this.processing = false
    }
  }

  getQueueLength(): number {
    return this.queue.length
  }

  clearQueueForHandler(handlerId: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.handlerId === handlerId) this.queue.splice(i, 1)[0]!.reject(new Error("Handler disconnected"))
    }
  }

  /** A connection went away: end what it held (its transaction is rolled back) and serve the others. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.inBatch.delete(handlerId)
    if (this.owner !== handlerId) return
    // exec takes PGlite's query lock itself (inside runExclusive it would wait for itself).
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK")
    this.owner = null
    await this.processQueue()
  }
}

/** Puts a SessionQueue in place of the server's own; call before `start()` (connections take the queue when they open). */
export const useSessionQueue = (server: PGLiteSocketServer, db: PGlite) => {
  if (!Reflect.has(server, "queryQueue")) throw new Error("pglite-socket changed: the server has no queryQueue to replace")
  Reflect.set(server, "queryQueue", new SessionQueue(db))
}
