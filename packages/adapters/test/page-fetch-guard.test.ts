import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Logger, LogLevel } from "effect"
import { PageFetchConfig, PageFetcherLive } from "../src/page-fetch/fetcher.js"
import { PageFetcher } from "../src/page-fetch/port.js"
import { fetchEnv, LOOPBACK, refusedReason } from "./support/fetch-env.js"
import { loopbackServer } from "./support/loopback-server.js"
import { siteRoutes } from "./support/site.js"

/**
 * The guard's positive side and its wiring: the same engine that refuses the
 * corpus fetches the loopback stand-in for a public site, resolves a name
 * once per connection and dials the address it vetted, logs every refusal
 * with its reason, and takes its caps from Config in production.
 */

describe("the guarded engine fetches what it may", () => {
  it.scopedLive("the public stand-in is fetched through the vetted address (the corpus refusals are not a broken setup)", () =>
    Effect.gen(function*() {
      const { fetcher, at, server, names, fuse } = yield* fetchEnv()
      const page = yield* fetcher.fetch(new URL(at("/ok")))
      expect(page).toMatchObject({ kind: "html", finalUrl: at("/ok"), siteName: "public.test", title: "A public page" })
      // public.test exists only in the fake resolver: reaching the server proves the dial used the vetted answer.
      expect(server.received).toEqual([{ path: "/ok", host: `public.test:${server.port}` }])
      expect(names.asked).toEqual(["public.test"])
      expect(fuse.admitted).toEqual([LOOPBACK])
    }))

  it.scopedLive("a redirect inside the site is followed and the final address reported; exactly the cap of redirects is followed", () =>
    Effect.gen(function*() {
      const { fetcher, at, server } = yield* fetchEnv()
      const redirected = yield* fetcher.fetch(new URL(at("/redirect?to=%2Fok&status=301")))
      expect(redirected.finalUrl).toBe(at("/ok"))
      const chained = yield* fetcher.fetch(new URL(at("/chain?n=5")))
      expect(chained.finalUrl).toBe(at("/chain?n=0"))
      expect(server.paths()).toEqual(["/redirect?to=%2Fok&status=301", "/ok", ...[5, 4, 3, 2, 1, 0].map((n) => `/chain?n=${n}`)])
    }))

  it.scopedLive("a name is resolved once for the connection: a rebinding answer on a second lookup never gets dialed", () =>
    Effect.gen(function*() {
      const { fetcher, at, server, names } = yield* fetchEnv({
        names: { "rebind.test": (call) => call === 1 ? [LOOPBACK] : ["10.0.0.1"] }
      })
      const page = yield* fetcher.fetch(new URL(at("/ok", "rebind.test")))
      expect(page.kind).toBe("html")
      expect(names.asked).toEqual(["rebind.test"])
      expect(server.received).toEqual([{ path: "/ok", host: `rebind.test:${server.port}` }])
    }))

  it.scopedLive("a name whose answer is refused is not asked again for a friendlier one", () =>
    Effect.gen(function*() {
      const env = yield* fetchEnv({ names: { "rebind.test": (call) => call === 1 ? ["10.0.0.1"] : [LOOPBACK] } })
      const reason = yield* refusedReason(env, env.at("/ok", "rebind.test"))
      expect(reason).toContain("rebind.test resolves to 10.0.0.1")
      expect(env.names.asked).toEqual(["rebind.test"])
      expect(env.server.received).toEqual([])
    }))

  it.scopedLive("the first address passes the field rules too: credentials are refused before any lookup or request", () =>
    Effect.gen(function*() {
      const env = yield* fetchEnv()
      const reason = yield* refusedReason(env, `http://user:pw@public.test:${env.server.port}/ok`)
      expect(reason).toContain("user name or password")
      expect(reason).not.toContain("pw")
      expect(env.names.asked).toEqual([])
      expect(env.server.received).toEqual([])
    }))
})

describe("refusals are logged with their reason, never with the address's secrets", () => {
  it.scopedLive("a refusal is logged at info with its reason and host; a query token is not logged", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const capture = Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => lines.push(line)))
      const env = yield* fetchEnv({ names: { "private.test": ["10.0.0.1"] } })
      yield* refusedReason(env, env.at("/redirect?to=http%3A%2F%2Fprivate.test%2Fadmin%3Ftoken%3Ds3cret")).pipe(
        Effect.provide(capture),
        Logger.withMinimumLogLevel(LogLevel.Debug)
      )
      const refusal = lines.find((line) => line.includes(`message="page fetch refused"`))
      expect(refusal).toContain("level=INFO")
      expect(refusal).toContain(`reason="private.test: private.test resolves to 10.0.0.1, which is not a public address"`)
      expect(refusal).toContain(`host=public.test:${env.server.port}`)
      expect(lines.some((line) => line.includes(`message="page fetch: redirect"`) && line.includes("level=DEBUG"))).toBe(true)
      expect(lines.join("\n")).not.toContain("s3cret")
    }))
})

describe("PageFetcherLive: caps from Config, public addresses only", () => {
  const withEnv = (entries: Record<string, string>) => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(entries))))

  it.effect("the caps default to 10 s, 10 MB and 5 redirects, and are read from FETCH_*", () =>
    Effect.gen(function*() {
      expect(yield* PageFetchConfig.pipe(Effect.provide(withEnv({})))).toEqual({ timeoutMs: 4_000, maxBytes: 10_485_760, maxRedirects: 5 })
      const set = withEnv({ FETCH_TIMEOUT_MS: "2500", FETCH_MAX_BYTES: "1024", FETCH_MAX_REDIRECTS: "0" })
      expect(yield* PageFetchConfig.pipe(Effect.provide(set))).toEqual({ timeoutMs: 2500, maxBytes: 1024, maxRedirects: 0 })
    }))

  it.effect("a cap that is not a positive integer fails the layer with a message naming it", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Effect.scoped(Layer.build(PageFetcherLive.pipe(Layer.provide(withEnv({ FETCH_MAX_BYTES: "0" }))))))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("FETCH_MAX_BYTES must be an integer of at least 1")
    }))

  // Only addresses that land on this machine if dialed: a broken guard shows as a hit on the loopback site, never as a dial out.
  it.scopedLive("the production fetcher (public-only policy) refuses loopback in any form, and localhost, without reaching the local site", () =>
    Effect.gen(function*() {
      const server = yield* loopbackServer(siteRoutes)
      const fetcher = yield* PageFetcher
      for (const host of ["127.0.0.1", "[::ffff:127.0.0.1]", "0.0.0.0", "2130706433", "localhost"]) {
        const error = yield* Effect.flip(fetcher.fetch(new URL(`http://${host}:${server.port}/ok`)))
        expect(error._tag, host).toBe("UnfetchableAddress")
      }
      expect(server.received).toEqual([])
    }).pipe(Effect.provide(PageFetcherLive.pipe(Layer.provide(withEnv({ FETCH_TIMEOUT_MS: "1000" })))), Logger.withMinimumLogLevel(LogLevel.Warning)))
})
