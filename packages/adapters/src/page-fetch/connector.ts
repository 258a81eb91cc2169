import { promises as dns } from "node:dns"
import type { LookupFunction } from "node:net"
import { buildConnector } from "undici"
import { ipLiteral, refusedHostName } from "./address-policy.js"

/**
 * The connection side of the SSRF guard. Every socket undici opens goes
 * through `guardedConnector`: a host name is resolved exactly once for that
 * connection, every address it resolves to is vetted, and the socket dials
 * one of those vetted addresses (Node's `lookup` hook hands them to
 * `net.connect`, which does not resolve again), so a name that answers a
 * public address to the check and a private one to the dial (DNS rebinding)
 * cannot slip through. IP literals skip DNS and are vetted here too.
 */

export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** Resolves a host name to all its addresses (injectable: tests never reach real DNS). */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>

/** Whether an address may be dialed (production: `isPublicAddress`). */
export type AddressPolicy = (ip: string) => boolean

/** The system resolver (getaddrinfo, so /etc/hosts counts too), every address at once. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true })
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

/** A refusal by the guard, told apart from network failures by its class; the message is the reason for logs. */
export class AddressRefused extends Error {
  readonly code = "ADDRESS_REFUSED"
  override readonly name = "AddressRefused"
}

const notFound = (hostname: string): Error =>
  Object.assign(new Error(`${hostname} resolves to no address`), { code: "ENOTFOUND", hostname })

/** The addresses of a name, all vetted: one refused address refuses the name (a split answer is not half-safe). */
const resolveVetted = async (
  hostname: string,
  resolver: Resolver,
  isAllowedAddress: AddressPolicy,
  checkNames: boolean
): Promise<ReadonlyArray<ResolvedAddress>> => {
  const nameRefusal = checkNames ? refusedHostName(hostname) : null
  if (nameRefusal !== null) throw new AddressRefused(nameRefusal)
  const addresses = await resolver(hostname)
  if (addresses.length === 0) throw notFound(hostname)
  const refused = addresses.find(({ address }) => !isAllowedAddress(address))
  if (refused !== undefined) throw new AddressRefused(`${hostname} resolves to ${refused.address}, which is not a public address`)
  return addresses
}

const familyOf = (family: number | string | undefined): 4 | 6 | null =>
  family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : null

/** Node's `lookup` hook for `net.connect`/`tls.connect`, answering only vetted addresses. */
const guardedLookup = (resolver: Resolver, isAllowedAddress: AddressPolicy, checkNames: boolean): LookupFunction => (hostname, options, callback) => {
  resolveVetted(hostname, resolver, isAllowedAddress, checkNames).then(
    (addresses) => {
      const family = familyOf(options.family)
      const wanted = family === null ? addresses : addresses.filter((a) => a.family === family)
      const first = wanted[0]
      if (first === undefined) return callback(notFound(hostname), "")
      if (options.all === true) return callback(null, wanted.map(({ address, family }) => ({ address, family })))
      return callback(null, first.address, first.family)
    },
    (error: Error) => callback(error, "")
  )
}

interface GuardOptions {
  readonly resolver: Resolver
  readonly isAllowedAddress: AddressPolicy
  /** How long establishing one connection (TCP and TLS) may take. */
  readonly connectTimeoutMs: number
  /** Refuse private-network names (`refusedHostName`) before resolving them (default true; off only where private targets are allowed). */
  readonly checkNames?: boolean
}

/** undici's `connect` for an Agent: the stock connector with the guarded lookup, refusing IP literals the policy refuses. */
export const guardedConnector = (options: GuardOptions): buildConnector.connector => {
  const connect = buildConnector({
    lookup: guardedLookup(options.resolver, options.isAllowedAddress, options.checkNames ?? true),
    timeout: options.connectTimeoutMs
  })
  return (target, callback) => {
    const literal = ipLiteral(target.hostname)
    if (literal !== null && !options.isAllowedAddress(literal)) {
      queueMicrotask(() => callback(new AddressRefused(`${literal} is not a public address`), null))
      return
    }
    connect(target, callback)
  }
}
