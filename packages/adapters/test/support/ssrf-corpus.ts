import type { FetchEnvOptions } from "./fetch-env.js"

/**
 * The SSRF corpus: addresses and redirect chains that must all be
 * refused. `PORT` in an address stands for the loopback server's port.
 * Each case says what may have happened on the way: the paths the loopback
 * "public" server served, the names the fake resolver was asked, and the
 * address the real policy must have judged (and refused).
 */
export interface SsrfCase extends FetchEnvOptions {
  readonly name: string
  readonly start: string
  /** Exactly the paths the loopback server received (default: none). */
  readonly served?: ReadonlyArray<string>
  /** The names the resolver may have been asked (default: none). */
  readonly resolved?: ReadonlyArray<string>
  /** An address the engine must have put to the policy, which the real policy refused. */
  readonly judged?: string
}

/** An IP literal, in whatever spelling the URL parser normalizes to `judged`: refused without DNS and without dialing anything. */
const literal = (start: string, judged: string, why: string): SsrfCase => ({
  name: `${why}: ${start}`, start, judged, admitLoopback: false
})

/** A host name refused before any DNS lookup. */
const refusedName = (start: string, why: string): SsrfCase => ({ name: `${why}: ${start}`, start, admitLoopback: false })

/** A name the fake resolver maps to refused addresses: asked once, every address vetted, nothing dialed. */
const resolvingTo = (host: string, addresses: ReadonlyArray<string>, judged: string, why: string): SsrfCase => ({
  name: `${why}: ${host} -> ${addresses.join(", ")}`,
  start: `http://${host}:PORT/ok`,
  names: { [host]: addresses },
  resolved: [host],
  judged
})

export const redirectPath = (target: string, status = 302) => `/redirect?to=${encodeURIComponent(target)}&status=${status}`

/** The loopback "public" page redirects to a refused target: the first hop is served, the target never is. */
const redirectTo = (target: string, why: string, more: Partial<SsrfCase> = {}): SsrfCase => ({
  name: `redirect to ${why}: ${target}`,
  start: `http://public.test:PORT${redirectPath(target)}`,
  served: [redirectPath(target)],
  ...more,
  resolved: ["public.test", ...(more.resolved ?? [])]
})

export const literalCases: ReadonlyArray<SsrfCase> = [
  literal("http://127.0.0.1/", "127.0.0.1", "loopback"),
  literal("http://127.255.255.254:8080/", "127.255.255.254", "loopback"),
  literal("http://0.0.0.0/", "0.0.0.0", "unspecified"),
  literal("http://0/", "0.0.0.0", "unspecified, short"),
  literal("http://0.1.2.3/", "0.1.2.3", "this network 0/8"),
  literal("http://10.0.0.1/", "10.0.0.1", "private 10/8"),
  literal("http://172.16.0.1/", "172.16.0.1", "private 172.16/12"),
  literal("http://172.31.255.254/", "172.31.255.254", "private 172.16/12"),
  literal("http://192.168.1.1/", "192.168.1.1", "private 192.168/16"),
  literal("http://169.254.169.254/latest/meta-data/", "169.254.169.254", "cloud metadata (link-local)"),
  literal("http://169.254.0.1/", "169.254.0.1", "link-local"),
  literal("http://100.64.0.1/", "100.64.0.1", "CGNAT"),
  literal("http://100.100.100.200/", "100.100.100.200", "CGNAT (Alibaba metadata)"),
  literal("http://240.0.0.1/", "240.0.0.1", "reserved 240/4"),
  literal("http://255.255.255.255/", "255.255.255.255", "broadcast"),
  literal("http://224.0.0.1/", "224.0.0.1", "multicast"),
  literal("http://239.255.255.250/", "239.255.255.250", "multicast (SSDP)"),
  literal("http://192.0.2.1/", "192.0.2.1", "documentation TEST-NET-1"),
  literal("http://198.51.100.7/", "198.51.100.7", "documentation TEST-NET-2"),
  literal("http://203.0.113.9/", "203.0.113.9", "documentation TEST-NET-3"),
  literal("http://198.18.0.1/", "198.18.0.1", "benchmarking"),
  literal("http://198.19.255.254/", "198.19.255.254", "benchmarking"),
  literal("http://192.0.0.170/", "192.0.0.170", "IETF protocol assignments 192.0.0/24"),
  literal("http://192.88.99.1/", "192.88.99.1", "6to4 relay anycast"),
  literal("http://[::1]/", "::1", "IPv6 loopback"),
  literal("http://[::]/", "::", "IPv6 unspecified"),
  literal("http://[fe80::1]/", "fe80::1", "IPv6 link-local"),
  literal("http://[fc00::1]/", "fc00::1", "unique-local"),
  literal("http://[fd00:ec2::254]/", "fd00:ec2::254", "unique-local (AWS metadata over IPv6)"),
  literal("http://[fec0::1]/", "fec0::1", "site-local"),
  literal("http://[ff02::1]/", "ff02::1", "IPv6 multicast"),
  literal("http://[::ffff:127.0.0.1]/", "::ffff:7f00:1", "IPv4-mapped loopback"),
  literal("http://[::ffff:10.0.0.1]/", "::ffff:a00:1", "IPv4-mapped private"),
  literal("http://[::ffff:169.254.169.254]/", "::ffff:a9fe:a9fe", "IPv4-mapped metadata"),
  literal("http://[::ffff:8.8.8.8]/", "::ffff:808:808", "IPv4-mapped (all refused)"),
  literal("http://[::127.0.0.1]/", "::7f00:1", "IPv4-compatible loopback"),
  literal("http://[::10.0.0.1]/", "::a00:1", "IPv4-compatible private"),
  literal("http://[64:ff9b::a9fe:a9fe]/", "64:ff9b::a9fe:a9fe", "NAT64 of the metadata address"),
  literal("http://[64:ff9b:1::a00:1]/", "64:ff9b:1::a00:1", "local-use NAT64"),
  literal("http://[2002:a9fe:a9fe::1]/", "2002:a9fe:a9fe::1", "6to4"),
  literal("http://[2001::1]/", "2001::1", "Teredo"),
  literal("http://[2001:db8::1]/", "2001:db8::1", "IPv6 documentation"),
  literal("http://[3fff::1]/", "3fff::1", "IPv6 documentation (RFC 9637)"),
  literal("http://[100::1]/", "100::1", "discard-only"),
  literal("http://[2001:10::1]/", "2001:10::1", "ORCHID"),
  literal("http://[2001:20::1]/", "2001:20::1", "ORCHIDv2"),
  literal("http://[2001:2::1]/", "2001:2::1", "IPv6 benchmarking")
]

export const spellingCases: ReadonlyArray<SsrfCase> = [
  literal("http://2130706433/", "127.0.0.1", "decimal loopback"),
  literal("http://0177.0.0.1/", "127.0.0.1", "octal loopback"),
  literal("http://0x7f.1/", "127.0.0.1", "hex, short loopback"),
  literal("http://127.1/", "127.0.0.1", "short loopback"),
  literal("http://0x7f000001/", "127.0.0.1", "hex loopback"),
  literal("http://017700000001/", "127.0.0.1", "octal long loopback"),
  literal("http://127.0.0.1./", "127.0.0.1", "trailing dot loopback"),
  literal("http://%31%32%37.0.0.1/", "127.0.0.1", "percent-encoded loopback"),
  literal("http://\uFF11\uFF12\uFF17.0.0.1/", "127.0.0.1", "full-width digits loopback"),
  literal("http://2852039166/", "169.254.169.254", "decimal metadata"),
  literal("http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254", "hex metadata"),
  literal("http://0251.0376.0251.0376/", "169.254.169.254", "octal metadata"),
  literal("http://10.1/", "10.0.0.1", "short private"),
  literal("http://[0:0:0:0:0:ffff:7f00:1]/", "::ffff:7f00:1", "long IPv4-mapped loopback"),
  literal("https://127.0.0.1:443/", "127.0.0.1", "https loopback")
]

export const nameCases: ReadonlyArray<SsrfCase> = [
  refusedName("http://localhost/", "localhost"),
  refusedName("http://LOCALHOST:8080/", "localhost, upper case"),
  refusedName("http://localhost./", "localhost, trailing dot"),
  refusedName("http://app.localhost/", "a .localhost name"),
  refusedName("http://metadata/computeMetadata/v1/", "metadata name"),
  refusedName("http://metadata.google.internal/computeMetadata/v1/", "GCP metadata name"),
  refusedName("http://metadata.google.internal./", "GCP metadata name, trailing dot"),
  refusedName("http://metadata.goog/", "GCP metadata name"),
  refusedName("http://instance-data/latest/", "AWS metadata name"),
  refusedName("http://instance-data.ec2.internal/", "AWS metadata name"),
  refusedName("http://metadata.azure.com/", "Azure metadata name"),
  refusedName("http://db.corp.internal/", "an .internal name"),
  refusedName("http://printer.local/", "an mDNS .local name"),
  refusedName("http://router.home.arpa/", "a home network name"),
  refusedName("http://intranet/", "a single-label name")
]

export const resolvedCases: ReadonlyArray<SsrfCase> = [
  resolvingTo("private.test", ["10.0.0.1"], "10.0.0.1", "private"),
  resolvingTo("meta.test", ["169.254.169.254"], "169.254.169.254", "metadata"),
  resolvingTo("loop.test", ["127.0.0.2"], "127.0.0.2", "loopback"),
  resolvingTo("v6loop.test", ["::1"], "::1", "IPv6 loopback"),
  resolvingTo("mapped.test", ["::ffff:10.0.0.1"], "::ffff:10.0.0.1", "IPv4-mapped private"),
  resolvingTo("mapped-loop.test", ["::ffff:127.0.0.1"], "::ffff:127.0.0.1", "IPv4-mapped loopback (would reach the test server)"),
  resolvingTo("nat64.test", ["64:ff9b::a00:1"], "64:ff9b::a00:1", "NAT64"),
  resolvingTo("ula.test", ["fd12:3456::1"], "fd12:3456::1", "unique-local"),
  resolvingTo("linklocal6.test", ["fe80::abcd"], "fe80::abcd", "IPv6 link-local"),
  resolvingTo("cgnat.test", ["100.64.1.1"], "100.64.1.1", "CGNAT"),
  resolvingTo("zero.test", ["0.0.0.0"], "0.0.0.0", "unspecified (dials the local host)"),
  resolvingTo("sixto4.test", ["2002:a00:1::1"], "2002:a00:1::1", "6to4"),
  resolvingTo("teredo.test", ["2001:0:a00:1::1"], "2001:0:a00:1::1", "Teredo"),
  resolvingTo("mixed.test", ["127.0.0.1", "10.0.0.1"], "10.0.0.1", "one admitted and one private address"),
  resolvingTo("mixed-first.test", ["10.0.0.1", "127.0.0.1"], "10.0.0.1", "one private and one admitted address"),
  resolvingTo("mixed-family.test", ["127.0.0.1", "fd00::1"], "fd00::1", "an admitted v4 and a private v6 address")
]

export const redirectCases: ReadonlyArray<SsrfCase> = [
  redirectTo("http://10.0.0.1/", "a private address", { judged: "10.0.0.1" }),
  redirectTo("http://169.254.169.254/latest/meta-data/iam/security-credentials/", "the metadata address", { judged: "169.254.169.254" }),
  redirectTo("http://[::1]:PORT/ok", "IPv6 loopback", { judged: "::1" }),
  redirectTo("http://0x0a000001/", "a hex private address", { judged: "10.0.0.1" }),
  redirectTo("http://[::ffff:a9fe:a9fe]/", "a mapped metadata address", { judged: "::ffff:a9fe:a9fe" }),
  redirectTo("http://[64:ff9b::a00:1]/", "a NAT64 address", { judged: "64:ff9b::a00:1" }),
  redirectTo("http://metadata.google.internal/computeMetadata/v1/", "the metadata name"),
  redirectTo("http://localhost:PORT/ok", "localhost (would reach the test server)"),
  redirectTo("//localhost:PORT/ok", "a scheme-relative localhost"),
  redirectTo("http://private.test/", "a name resolving to a private address", {
    names: { "private.test": ["10.0.0.1"] }, resolved: ["private.test"], judged: "10.0.0.1"
  }),
  redirectTo("http://mapped.test:PORT/ok", "a name resolving to ::ffff:10.0.0.1", {
    names: { "mapped.test": ["::ffff:10.0.0.1"] }, resolved: ["mapped.test"], judged: "::ffff:10.0.0.1"
  }),
  redirectTo("http://mapped-loop.test:PORT/ok", "a name resolving to mapped loopback (would reach the test server)", {
    names: { "mapped-loop.test": ["::ffff:127.0.0.1"] }, resolved: ["mapped-loop.test"], judged: "::ffff:127.0.0.1"
  }),
  redirectTo("file:///etc/passwd", "file:"),
  redirectTo("ftp://example.com/pub/file.txt", "ftp:"),
  redirectTo("gopher://127.0.0.1:PORT/_GET%20/ok", "gopher:"),
  redirectTo("data:text/html,<p>hi</p>", "data:"),
  redirectTo("javascript:alert(1)", "javascript:"),
  redirectTo("http://user:secret@public.test:PORT/ok", "an address with credentials (would reach the test server)"),
  redirectTo("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "a video-hosting site"),
  redirectTo("http://[::1", "an unreadable Location"),
  ...[301, 303, 307, 308].map((status): SsrfCase => ({
    name: `redirect ${status} to the metadata address`,
    start: `http://public.test:PORT${redirectPath("http://169.254.169.254/", status)}`,
    served: [redirectPath("http://169.254.169.254/", status)],
    resolved: ["public.test"],
    judged: "169.254.169.254"
  })),
  {
    name: "redirect to a redirect to a private address",
    start: `http://public.test:PORT${redirectPath(redirectPath("http://10.0.0.1/"))}`,
    served: [redirectPath(redirectPath("http://10.0.0.1/")), redirectPath("http://10.0.0.1/")],
    resolved: ["public.test"],
    judged: "10.0.0.1"
  }
]
