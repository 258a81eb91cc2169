import { describe, expect, it } from "@effect/vitest"
import { ipLiteral, isPublicAddress, refusedHostName } from "../src/page-fetch/address-policy.js"

/** The SSRF guard's pure rules: only public unicast addresses, and no private-network names (no network here). */

describe("isPublicAddress: only public unicast addresses may be fetched", () => {
  it("public IPv4 and IPv6 addresses pass", () => {
    for (const ip of ["93.184.216.34", "8.8.8.8", "1.1.1.1", "151.101.1.69", "100.63.255.255", "100.128.0.0",
      "172.15.255.255", "172.32.0.1", "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.254",
      "2606:4700::1", "2a00:1450:4001:82a::200e", "2001:4860:4860::8888", "2620:fe::fe", "2400:cb00:2048:1::c629:d7a2"]) {
      expect(isPublicAddress(ip), ip).toBe(true)
    }
  })

  it("every non-public IPv4 range is refused, at its edges too", () => {
    for (const ip of ["0.0.0.0", "0.255.255.255", "10.0.0.0", "10.255.255.255", "100.64.0.0", "100.127.255.255",
      "127.0.0.1", "127.255.255.255", "169.254.0.0", "169.254.169.254", "172.16.0.0", "172.31.255.255", "192.0.0.8",
      "192.0.2.255", "192.88.99.1", "192.168.0.0", "192.168.255.255", "198.18.0.0", "198.19.255.255", "198.51.100.0",
      "203.0.113.255", "224.0.0.0", "239.255.255.255", "240.0.0.0", "255.255.255.254", "255.255.255.255",
      "192.31.196.1", "192.52.193.1", "192.175.48.1"]) {
      expect(isPublicAddress(ip), ip).toBe(false)
    }
  })

  it("every non-public IPv6 range, and every form that embeds an IPv4 address, is refused", () => {
    for (const ip of ["::", "::1", "fe80::1", "febf:ffff::1", "fc00::1", "fdff:ffff::1", "fec0::1", "ff02::1",
      "ff0e::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:8.8.8.8", "::ffff:0:8.8.8.8", "::127.0.0.1",
      "::8.8.8.8", "64:ff9b::808:808", "64:ff9b::a00:1", "64:ff9b:1::1", "2002:808:808::1", "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:db8::1", "2001:db8:ffff::1", "2001:2::1", "2001:10::1",
      "2001:20::1", "3fff::1", "100::1", "5f00::1", "4000::1", "1fff::1"]) {
      expect(isPublicAddress(ip), ip).toBe(false)
    }
  })

  it("a zone id, a non-canonical IPv4 spelling, or something that is not an address is refused", () => {
    for (const ip of ["fe80::1%eth0", "2606:4700::1%1", "127.1", "0x7f.0.0.1", "2130706433", "8.8.8", "example.com",
      "", " ", "[::1]", "1.2.3.4.5", "256.1.1.1"]) {
      expect(isPublicAddress(ip), ip).toBe(false)
    }
  })

  it("a bracketed public IPv6 literal (as a URL spells it) is judged by its address", () => {
    expect(isPublicAddress("[2606:4700::1]")).toBe(true)
  })
})

describe("refusedHostName: names refused before any DNS lookup", () => {
  it("localhost, metadata service names and private-network suffixes are refused, in any case and with a trailing dot", () => {
    for (const host of ["localhost", "LOCALHOST", "localhost.", "a.b.localhost", "metadata", "metadata.google.internal",
      "METADATA.GOOGLE.INTERNAL.", "metadata.goog", "x.metadata.goog", "instance-data", "instance-data.ec2.internal",
      "metadata.azure.com", "anything.internal", "printer.local", "nas.localdomain", "router.home.arpa", "intranet",
      "wiki", "db.corp", "box.lan"]) {
      expect(refusedHostName(host), host).not.toBeNull()
    }
  })

  it("a public name passes (its addresses are vetted after resolution); IP literals are left to the address policy", () => {
    for (const host of ["example.com", "www.example.com", "public.test", "xn--bcher-kva.example", "internal.example.com",
      "localhost.example.com", "metadata.example.com", "127.0.0.1", "[::1]"]) {
      expect(refusedHostName(host), host).toBeNull()
    }
  })

  it("ipLiteral tells an IP literal (bare or bracketed) from a name", () => {
    expect(ipLiteral("10.0.0.1")).toBe("10.0.0.1")
    expect(ipLiteral("[::ffff:a00:1]")).toBe("::ffff:a00:1")
    expect(ipLiteral("public.test")).toBeNull()
  })
})
