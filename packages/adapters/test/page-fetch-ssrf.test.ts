import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import { expectRealPolicyRefusedAll, fetchEnv, refusedReason } from "./support/fetch-env.js"
import { limitCases } from "./support/limit-corpus.js"
import { closedPort } from "./support/loopback-server.js"
import { literalCases, nameCases, redirectCases, resolvedCases, spellingCases, type SsrfCase } from "./support/ssrf-corpus.js"

/**
 * Addresses pointing at private networks or the metadata service,
 * redirects to them, and addresses that cannot be reached are all refused
 * (the caller's 400 "This address cannot be fetched"). Every case runs the
 * real engine against a fake resolver and a loopback server; the fuse policy
 * admits only that server, so no case can dial anything else, and each case
 * checks what did happen: the paths served, the names resolved, and that the
 * real policy refused every address the engine asked about.
 */

const corpus = [...literalCases, ...spellingCases, ...nameCases, ...resolvedCases, ...redirectCases, ...limitCases]

const fill = (text: string, port: number, closed: number) =>
  text.replaceAll("PORT", String(port)).replaceAll("CLOSED", String(closed))

const refusedCase = (c: SsrfCase) =>
  Effect.gen(function*() {
    const env = yield* fetchEnv(c)
    const closed = c.start.includes("CLOSED") ? yield* closedPort : 0
    yield* refusedReason(env, fill(c.start, env.server.port, closed))

    expect(env.server.paths()).toEqual((c.served ?? []).map((path) => fill(path, env.server.port, closed)))
    const mayResolve = c.resolved ?? []
    expect(env.names.asked.filter((name) => !mayResolve.includes(name))).toEqual([])
    // A name the case maps to refused addresses was resolved once: the refusal came from vetting its answer.
    for (const name of Object.keys(c.names ?? {})) expect(env.names.asked.filter((asked) => asked === name)).toHaveLength(1)
    expectRealPolicyRefusedAll(env)
    if (c.judged !== undefined) expect(env.fuse.judged).toContainEqual({ ip: c.judged, publicVerdict: false })
  }).pipe(Logger.withMinimumLogLevel(LogLevel.Warning)) // the refusal log has its own test (page-fetch-guard)

describe("the SSRF corpus: every address and redirect chain is refused", () => {
  it("holds at least 60 addresses and redirect chains, each named once", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60)
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length)
  })

  describe("IP literals of non-public addresses are refused before any connection", () => {
    it.scopedLive.each(literalCases)("$name", refusedCase)
  })

  describe("every spelling the URL parser normalizes to such an address is refused the same way", () => {
    it.scopedLive.each(spellingCases)("$name", refusedCase)
  })

  describe("localhost, metadata and private-network names are refused before DNS", () => {
    it.scopedLive.each(nameCases)("$name", refusedCase)
  })

  describe("a name resolving to any non-public address is refused, even beside an admitted one", () => {
    it.scopedLive.each(resolvedCases)("$name", refusedCase)
  })

  describe("a redirect from the public site to a refused target is refused; the target is never reached", () => {
    it.scopedLive.each(redirectCases)("$name", refusedCase)
  })

  describe("caps and unreachable addresses: too many redirects, too large, too slow, not 2xx, unreadable, unreachable", () => {
    it.scopedLive.each(limitCases)("$name", refusedCase)
  })
})
