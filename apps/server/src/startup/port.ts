import { createServer } from "node:net"
import { Data, Effect, Predicate } from "effect"

/** The HTTP port cannot be opened; `message` says why and what to do. */
export class PortUnavailable extends Data.TaggedError("PortUnavailable")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** A property of an error object of unknown shape (Node's errors carry code, address, port, syscall). */
export const field = (error: unknown, name: string): unknown =>
  Predicate.hasProperty(error, name) ? error[name] : undefined

/** A readable sentence for a failed `listen`, or undefined when `error` is not one. */
export const describeListenError = (error: unknown, host?: string, port?: number): string | undefined => {
  const code = field(error, "code")
  const where = `${String(field(error, "address") ?? host)}:${String(field(error, "port") ?? port)}`
  switch (code) {
    case "EADDRINUSE":
      return `port ${String(field(error, "port") ?? port)} is already in use (${where}): stop the process using it or set PORT to a free port`
    case "EACCES":
      return `not allowed to listen on ${where}: set PORT to 1024 or above, or grant this process the right to bind low ports`
    case "EADDRNOTAVAIL":
      return `HOST ${String(field(error, "address") ?? host)} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all`
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `HOST ${host ?? String(field(error, "hostname"))} cannot be resolved: set HOST to an address or a known host name`
    default:
      return field(error, "syscall") === "listen" ? `cannot listen on ${where}: ${String(field(error, "message"))}` : undefined
  }
}

/**
 * Opens and closes the port, so a taken port stops the start before the
 * database is opened, migrated or seeded. The real listener opens later,
 * once every service is built (see main.ts).
 */
export const probePort = (host: string, port: number): Effect.Effect<void, PortUnavailable> =>
  Effect.async<void, PortUnavailable>((resume) => {
    const server = createServer()
    server.once("error", (cause) =>
      resume(Effect.fail(new PortUnavailable({ message: describeListenError(cause, host, port) ?? String(cause), cause }))))
    server.listen({ host, port, exclusive: true }, () => server.close(() => resume(Effect.void)))
    return Effect.sync(() => server.close())
  })
