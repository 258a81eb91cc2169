import ipaddr from "ipaddr.js"

/**
 * The SSRF guard's pure rules: which addresses and host names a
 * page fetch may reach. Only public unicast addresses are fetchable; the
 * lists below are the ranges that look unicast but are not the public
 * internet (or hide another address inside, like the 4-in-6 forms).
 */

type Range = readonly [ipaddr.IPv4 | ipaddr.IPv6, number]

const cidrs = (...list: ReadonlyArray<string>): ReadonlyArray<Range> => list.map((cidr) => ipaddr.parseCIDR(cidr))

/** IPv4 ranges that are never fetched, whatever ipaddr.js's range names say in a later version. */
const refusedV4 = cidrs(
  "0.0.0.0/8", // "this network", and 0.0.0.0 dials the local host
  "10.0.0.0/8",
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8",
  "169.254.0.0/16", // link-local, incl. the cloud metadata service 169.254.169.254
  "172.16.0.0/12",
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.31.196.0/24", // AS112
  "192.52.193.0/24", // AMT
  "192.88.99.0/24", // 6to4 relay anycast
  "192.168.0.0/16",
  "192.175.48.0/24", // AS112
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4" // reserved for future use, incl. broadcast 255.255.255.255
)

/** The only IPv6 space that is public unicast today: 2000::/3. Everything else (::1, ::, ::a.b.c.d, ::ffff:a.b.c.d, 64:ff9b::/96, 100::/64, fc00::/7, fe80::/10, fec0::/10, ff00::/8) is outside it. */
const globalUnicastV6 = ipaddr.parseCIDR("2000::/3")

/** Inside 2000::/3 but not a public host: tunnels that embed an IPv4 address, protocol assignments, documentation. */
const refusedV6 = cidrs(
  "2001::/23", // IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28, ...
  "2001:db8::/32", // documentation
  "2002::/16", // 6to4: embeds an IPv4 address
  "2620:4f:8000::/48", // AS112
  "3fff::/20" // documentation (RFC 9637)
)

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: ReadonlyArray<Range>): boolean =>
  ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits))

const parseStrict = (ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null => {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip
  // Only the canonical four-part IPv4 form: resolvers and the URL parser never hand out "127.1" or "0x7f.1".
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare)
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare)
  return null
}

/**
 * True only for a public unicast address, in either family. A string that is
 * not an IP address, an address with a zone id, and every IPv4-mapped or
 * IPv4-embedding IPv6 form are refused (the simplest safe rule for 4-in-6).
 */
export const isPublicAddress = (ip: string): boolean => {
  const address = parseStrict(ip.trim())
  if (address === null) return false
  if (address.kind() === "ipv4") return address.range() === "unicast" && !within(address, refusedV4)
  if (address instanceof ipaddr.IPv6 && address.zoneId !== undefined) return false
  return within(address, [globalUnicastV6]) && !within(address, refusedV6) && address.range() === "unicast"
}

/** An IP literal as a URL's host name spells it (v6 in brackets), without the brackets; null for a name. */
export const ipLiteral = (hostname: string): string | null => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare) ? bare : null
}

/** Names of cloud metadata services; each is also refused with any subdomain. */
const metadataNames: ReadonlyArray<string> = [
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.com",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com"
]

/** Suffixes that only ever name hosts of a private network (RFC 6761, RFC 6762, RFC 8375, common internal zones). */
const privateSuffixes: ReadonlyArray<string> = ["localhost", "internal", "local", "localdomain", "home.arpa", "intranet", "corp", "lan"]

const isOrUnder = (host: string, name: string) => host === name || host.endsWith(`.${name}`)

/**
 * Why a host name is refused before any DNS lookup, or null when it may be
 * resolved (its addresses are then vetted one by one). IP literals are not
 * judged here: they are addresses, vetted by the address policy.
 */
export const refusedHostName = (host: string): string | null => {
  const name = host.trim().toLowerCase().replace(/\.+$/, "")
  if (ipLiteral(name) !== null) return null
  if (name === "") return "the address has no host name"
  if (metadataNames.some((meta) => isOrUnder(name, meta))) return `${name} is a cloud metadata service name`
  const suffix = privateSuffixes.find((private_) => isOrUnder(name, private_))
  if (suffix !== undefined) return `${name} is a private-network name (.${suffix})`
  // A single label is completed by the resolver's local search domains: an intranet host, never a public page.
  if (!name.includes(".")) return `${name} is a single-label (intranet) name`
  return null
}
