import { Effect } from "effect"
import { expect } from "@effect/vitest"
import { makePageFetcher, type PageFetcherOptions } from "../../src/page-fetch/fetcher.js"
import type { PageFetcher } from "../../src/page-fetch/port.js"
import { fakeResolver, fusePolicy } from "./fake-resolver.js"
import { type Handler, loopbackServer } from "./loopback-server.js"
import { siteRoutes } from "./site.js"

/** The loopback server's address, which `public.test` resolves to in tests. */
export const LOOPBACK = "127.0.0.1"

export interface FetchEnvOptions {
  readonly routes?: Record<string, Handler>
  /** Extra names for the fake resolver; `public.test` and `www.public.test` are always the loopback server. */
  readonly names?: Record<string, ReadonlyArray<string> | ((call: number) => ReadonlyArray<string>)>
  /** Whether the loopback server may be dialed (false: nothing may be dialed at all). */
  readonly admitLoopback?: boolean
  readonly caps?: Omit<PageFetcherOptions, "resolver" | "isAllowedAddress">
}

/** A loopback site, a fake resolver, the fuse policy and the real engine over them, closed with the scope. */
export const fetchEnv = (options: FetchEnvOptions = {}) =>
  Effect.gen(function*() {
    const server = yield* loopbackServer(options.routes ?? siteRoutes)
    const names = fakeResolver({ "public.test": [LOOPBACK], "www.public.test": [LOOPBACK], ...options.names })
    const fuse = fusePolicy(options.admitLoopback === false ? [] : [LOOPBACK])
    const fetcher: PageFetcher["Type"] = yield* makePageFetcher({
      ...options.caps,
      resolver: names.resolver,
      isAllowedAddress: fuse.policy
    })
    const at = (path: string, host = "public.test") => `http://${host}:${server.port}${path}`
    return { server, names, fuse, fetcher, at }
  })

export type FetchEnv = Effect.Effect.Success<ReturnType<typeof fetchEnv>>

/** The fetch's failure, which must be an UnfetchableAddress; its reason is returned for further checks. */
export const refusedReason = (env: FetchEnv, address: string) =>
  env.fetcher.fetch(new URL(address)).pipe(
    Effect.flip,
    Effect.map((error) => {
      expect(error._tag).toBe("UnfetchableAddress")
      expect(error.reason.length).toBeGreaterThan(0)
      return error.reason
    })
  )

/** The real policy refused every address the engine asked about (the fuse admitted only the loopback stand-in). */
export const expectRealPolicyRefusedAll = (env: FetchEnv) => {
  expect(env.fuse.judged.filter((verdict) => verdict.publicVerdict)).toEqual([])
  expect(new Set(env.fuse.admitted)).toEqual(new Set(env.fuse.admitted.length === 0 ? [] : [LOOPBACK]))
}
