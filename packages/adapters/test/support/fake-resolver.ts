import type { AddressPolicy, ResolvedAddress, Resolver } from "../../src/page-fetch/connector.js"
import { isPublicAddress } from "../../src/page-fetch/address-policy.js"

/**
 * A resolver from a fixed table, recording every name it is asked: a name
 * not in the table fails like an unknown name (ENOTFOUND), so no test name
 * ever reaches real DNS.
 */
export interface FakeResolver {
  readonly resolver: Resolver
  readonly asked: Array<string>
}

const familyOf = (address: string): 4 | 6 => address.includes(":") ? 6 : 4

export const fakeResolver = (table: Record<string, ReadonlyArray<string> | ((call: number) => ReadonlyArray<string>)>): FakeResolver => {
  const asked: Array<string> = []
  const resolver: Resolver = async (hostname) => {
    asked.push(hostname)
    const entry = table[hostname.toLowerCase()]
    const calls = asked.filter((name) => name === hostname).length
    const addresses = typeof entry === "function" ? entry(calls) : entry
    if (addresses === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" })
    }
    return addresses.map((address): ResolvedAddress => ({ address, family: familyOf(address) }))
  }
  return { resolver, asked }
}

/**
 * The address policy of the engine under test, as a fuse: it admits only the
 * loopback test server's address (when asked to), and records for every other
 * address what the real policy (`isPublicAddress`) says. It never admits
 * anything else, so even a broken real policy cannot make a test dial out:
 * the test fails on the recorded verdict instead.
 */
export interface FusePolicy {
  readonly policy: AddressPolicy
  /** Every address the engine asked about, with the real policy's verdict. */
  readonly judged: Array<{ readonly ip: string; readonly publicVerdict: boolean }>
  /** Addresses the engine was allowed to dial. */
  readonly admitted: Array<string>
}

export const fusePolicy = (admit: ReadonlyArray<string> = []): FusePolicy => {
  const judged: FusePolicy["judged"] = []
  const admitted: Array<string> = []
  const policy: AddressPolicy = (ip) => {
    if (admit.includes(ip)) {
      admitted.push(ip)
      return true
    }
    judged.push({ ip, publicVerdict: isPublicAddress(ip) })
    return false
  }
  return { policy, judged, admitted }
}
