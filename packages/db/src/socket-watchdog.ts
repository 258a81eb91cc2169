import { Socket } from "node:net"

// The last message of every answer the server gives: ReadyForQuery, 'Z' with
// length 5 and one status byte.
const READY_FOR_QUERY = [0x5a, 0x00, 0x00, 0x00, 0x05] as const
const SSL_ACCEPTED = 0x53

interface Watched {
  readonly socket: Socket
  /** Everything written was answered: idle in the pool (or between statements). */
  readonly isIdle: () => boolean
}

/**
 * A socket factory for `pg` (PgClientConfig.stream): each socket destroys
 * itself once bytes it wrote have stayed unanswered, with no traffic either
 * way, for `deadlineMs`; and when one does, the factory's idle sockets are
 * destroyed with it.
 *
 * Why: on a black-holed network a connection never errors by itself, and
 * sql-pg 0.53 hands a connection interrupted by a timeout back to the pool as
 * healthy: without this the service answered 503 until restarted. Destroying the socket makes `pg` fail the query and the
 * connection, and the pool drops it and connects afresh. pg's own query
 * timeout, set to fire after this deadline (client.ts), fails only the query
 * and leaves it on the connection, which sql-pg 0.53 would then return to the
 * pool as healthy (client.ts retires such a connection as it is released).
 *
 * The idle ones: a network that swallowed one connection swallowed the
 * pool's idle connections too, and each would be found dead only when a
 * request used it, one query timeout after another (about 10 s in all).
 * Retiring them at the first death costs at most a reconnect each, and leaves
 * the pool whole as soon as the database answers again. A socket still
 * waiting for an answer is left to its own deadline: a slow query on a
 * healthy server looks the same. A transaction between two statements and a
 * LISTEN connection look idle and go too: right on a dead network, a rare
 * cost otherwise (sql-pg does not re-open a LISTEN connection by itself).
 *
 * Plain TCP or Unix socket: the watchdog sees the protocol, so "answered"
 * means "the server said ReadyForQuery after our last write". TLS: the raw
 * socket sees neither data events nor plaintext, only byte counters, so a
 * read after a write counts as the answer; when both fall in one tick it
 * assumes the best (an idle connection must never be killed for silence) and
 * pg's query timeout stays the backstop. An idle connection, a LISTEN connection
 * and a slow query within the statement timeout (which the server answers)
 * are never dropped for their own silence; a cursor left unread for longer
 * than the deadline is.
 */
export const watchdogSocket = (deadlineMs: number) => {
  const open = new Set<Watched>()
  const tickMs = Math.min(250, Math.max(25, Math.floor(deadlineMs / 10)))

  const retireIdle = (dead: Socket) => {
    for (const watched of open) {
      if (watched.socket !== dead && watched.isIdle()) {
        watched.socket.destroy(new Error("Another connection to the database went silent; retiring this idle one"))
      }
    }
  }

  return (): Socket => {
    const socket = new Socket()
    let plaintext: boolean | undefined
    let tail: Array<number> = []
    let answeredUpTo = 0
    let seenRead = 0
    let seenWritten = 0
    let quietSince = Date.now()

    const watched: Watched = {
      socket,
      isIdle: () => !socket.destroyed && socket.bytesWritten > 0 && socket.bytesWritten <= answeredUpTo
    }
    open.add(watched)

    socket.on("data", (chunk: Buffer) => {
      // The first byte back tells whether TLS follows ('S' answers pg's SSLRequest).
      if (plaintext === undefined) plaintext = !(chunk.length === 1 && chunk[0] === SSL_ACCEPTED)
      if (!plaintext) return
      tail = [...tail, ...chunk.subarray(-6)].slice(-6)
      if (READY_FOR_QUERY.every((byte, i) => tail[i] === byte)) answeredUpTo = socket.bytesWritten
    })

    const timer = setInterval(() => {
      const read = socket.bytesRead
      const written = socket.bytesWritten
      if (read !== seenRead || written !== seenWritten) {
        quietSince = Date.now()
        if (read !== seenRead && plaintext === false) answeredUpTo = written
        seenRead = read
        seenWritten = written
        return
      }
      if (written > answeredUpTo && Date.now() - quietSince >= deadlineMs) {
        socket.destroy(new Error(`No answer from the database for ${deadlineMs} ms; dropping the connection`))
        retireIdle(socket)
      }
    }, tickMs)
    // The timer must neither keep the process alive nor outlive the socket.
    timer.unref()
    socket.once("close", () => {
      clearInterval(timer)
      open.delete(watched)
    })
    return socket
  }
}
