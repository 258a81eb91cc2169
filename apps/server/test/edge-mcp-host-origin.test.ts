import type { HttpServerRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import { ServerConfig } from "../src/config.js"
import { hostOriginGuard } from "../src/http/host-origin.js"
import { failureLine } from "../src/startup/failure.js"
import { acmeCallerMatrix } from "./support/callers.js"
import { mcpInitialize, mcpPostHeaders } from "./support/mcp.js"
import { type RawOptions, rawWithHost, TestServerLive } from "./support/server.js"

const PUBLIC_URL = "https://tks.example.test"
const CORS_ORIGIN = "https://app.example.test"

// This server's own names and origins; everything else from the environment (TEST_DATABASE_URL).
const Settings = Layer.setConfigProvider(
  ConfigProvider.fromMap(new Map([
    ["PUBLIC_URL", PUBLIC_URL],
    ["ALLOWED_HOSTS", "tks.internal, gateway.example.test:8443"],
    ["CORS_ORIGINS", CORS_ORIGIN]
  ])).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
)

const rpcRequest = `${JSON.stringify({ _tag: "Request", id: "0", tag: "list_categories", payload: {}, headers: [] })}\n`

/** An MCP initialize as the viewer, with `host` in Host (undefined: the server's own address) and the headers given. */
const mcp = (host: string | undefined, headers: Record<string, string> = {}, path = "/mcp") =>
  Effect.gen(function*() {
    const { tokens } = yield* acmeCallerMatrix
    const options: RawOptions = { token: tokens.viewer, body: mcpInitialize, headers: { ...mcpPostHeaders, ...headers } }
    return yield* rawWithHost(host, "POST", path, options)
  })

const rpc = (host: string | undefined, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const { tokens } = yield* acmeCallerMatrix
    return yield* rawWithHost(host, "POST", "/rpc", { token: tokens.viewer, body: rpcRequest, headers: { "content-type": "application/ndjson", ...headers } })
  })

const WRONG_HOST = { _tag: "Forbidden", code: "FORBIDDEN", message: "This host is not one this service answers for" }
const WRONG_ORIGIN = { _tag: "Forbidden", code: "FORBIDDEN", message: "Requests from this origin are not allowed" }

const served = (response: { readonly status: number; readonly json: any }, label: string) => {
  expect(response.status, label).toBe(200)
  expect(response.json, label).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: expect.any(Object) } })
}

layer(TestServerLive.pipe(Layer.provide(Settings)), { excludeTestServices: true })(
  "/mcp and /rpc answer only their own hosts and origins (DNS-rebinding protection)",
  (it) => {
    it.effect("a Host that is not the service's is 403 with the JSON error body, and nothing is served", () =>
      Effect.gen(function*() {
        // The router takes these spellings as /mcp itself: none of them is a way around the rule.
        for (const path of ["/MCP", "//mcp", "/%6Dcp", "/mcp/"]) served(yield* mcp(undefined, {}, path), path)
        for (const path of ["/mcp", "/mcp/anything", "/MCP", "//mcp", "/%6Dcp", "/mcp/"]) {
          const response = yield* mcp("evil.example", {}, path)
          expect(response.status, path).toBe(403)
          expect(response.headers.get("content-type"), path).toMatch(/^application\/json/)
          // The refusal and nothing else: no MCP answer, no rate-limit count.
          expect(response.json, path).toEqual({ ...WRONG_HOST, requestId: expect.any(String) })
          expect(response.headers.get("ratelimit-remaining"), path).toBeNull()
          expect(response.headers.get("x-request-id"), path).toBeTruthy()
          expect(response.headers.get("x-content-type-options"), path).toBe("nosniff")
        }
        const refusedRpc = yield* rpc("evil.example:3000")
        expect(refusedRpc.status).toBe(403)
        expect(refusedRpc.json).toEqual({ ...WRONG_HOST, requestId: expect.any(String) })
        // Ahead of authentication too: a page on another site gets no 401 challenge either.
        const noToken = yield* rawWithHost("evil.example", "POST", "/mcp", { body: mcpInitialize })
        expect(noToken.status).toBe(403)
      }))

    it.effect("an Origin that is not the service's is 403, even from an allowed Host", () =>
      Effect.gen(function*() {
        for (const origin of ["http://evil.example", "null", `http://tks.example.test`, "http://localhost.evil.example", "http://127.0.0.1.evil.example:80"]) {
          const response = yield* mcp(undefined, { origin })
          expect(response.status, origin).toBe(403)
          expect(response.json, origin).toEqual({ ...WRONG_ORIGIN, requestId: expect.any(String) })
        }
        const refusedRpc = yield* rpc("localhost:3000", { origin: "http://evil.example" })
        expect(refusedRpc.status).toBe(403)
        expect(refusedRpc.json).toEqual({ ...WRONG_ORIGIN, requestId: expect.any(String) })
      }))

    it.effect("no Origin (a program, not a browser) is allowed", () =>
      Effect.gen(function*() {
        served(yield* mcp(undefined), "the server's own address")
        const answered = yield* rpc(undefined)
        expect(answered.status).toBe(200)
        expect(JSON.parse(answered.text.trim().split("\n")[0]!)).toMatchObject({ _tag: "Exit", exit: { _tag: "Success" } })
      }))

    it.effect("a loopback Host, with any port or none, is allowed", () =>
      Effect.gen(function*() {
        for (const host of ["localhost", "localhost:54321", "127.0.0.1:3000", "[::1]:8080", "LOCALHOST:3000"]) served(yield* mcp(host), host)
        for (const origin of ["http://localhost:5173", "https://127.0.0.1", "http://[::1]:3000"]) {
          served(yield* mcp("localhost:3000", { origin }), origin)
        }
      }))

    it.effect("a host listed in ALLOWED_HOSTS is allowed: a bare name on any port, host:port on that port only", () =>
      Effect.gen(function*() {
        for (const host of ["tks.internal", "tks.internal:9999", "gateway.example.test:8443"]) served(yield* mcp(host), host)
        for (const host of ["gateway.example.test", "gateway.example.test:8444", "other.internal"]) {
          const response = yield* mcp(host)
          expect(response.status, host).toBe(403)
          expect(response.json, host).toEqual({ ...WRONG_HOST, requestId: expect.any(String) })
        }
      }))

    it.effect("an origin listed in CORS_ORIGINS is allowed, with its CORS headers", () =>
      Effect.gen(function*() {
        const response = yield* mcp("tks.example.test", { origin: CORS_ORIGIN })
        served(response, CORS_ORIGIN)
        expect(response.headers.get("access-control-allow-origin")).toBe(CORS_ORIGIN)
      }))

    it.effect("PUBLIC_URL's host and origin are allowed", () =>
      Effect.gen(function*() {
        served(yield* mcp("tks.example.test", { origin: PUBLIC_URL }), "PUBLIC_URL")
        served(yield* mcp("tks.example.test:443"), "PUBLIC_URL's host with its port")
        expect((yield* rpc("tks.example.test", { origin: PUBLIC_URL })).status).toBe(200)
      }))

    it.effect("/v1 is unaffected: another Host and Origin are answered as before", () =>
      Effect.gen(function*() {
        const { tokens } = yield* acmeCallerMatrix
        const plain = yield* rawWithHost(undefined, "GET", "/v1/me", { token: tokens.viewer })
        const foreign = yield* rawWithHost("evil.example", "GET", "/v1/me", { token: tokens.viewer, headers: { origin: "http://evil.example" } })
        expect(plain.status).toBe(200)
        expect(foreign.status).toBe(200)
        expect(foreign.json).toEqual(plain.json)
        const probe = yield* rawWithHost("evil.example", "GET", "/health")
        expect(probe.status).toBe(200)
      }))
  }
)

describe("the host and origin rule on its own", () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as HttpServerRequest.HttpServerRequest
  const guard = (corsOrigins: ReadonlyArray<string>) =>
    hostOriginGuard({ paths: ["/mcp", "/rpc"], allowedHosts: [], corsOrigins, publicUrl: Option.none() })!

  it("CORS_ORIGINS=* allows any Origin, while the Host is still checked", () => {
    const any = guard(["*"])
    expect(any(request({ host: "localhost:3000", origin: "https://anywhere.example" }), "/mcp")).toBeUndefined()
    expect(any(request({ host: "evil.example", origin: "https://anywhere.example" }), "/mcp")?.status).toBe(403)
  })

  it("a missing Host is refused; other paths are never looked at", () => {
    const none = guard([])
    expect(none(request({}), "/rpc")?.status).toBe(403)
    expect(none(request({ host: "evil.example" }), "/v1/me")).toBeUndefined()
    expect(none(request({ host: "evil.example" }), "/mcpx")).toBeUndefined()
    expect(none(request({ host: "evil.example" }), "http://evil.example/mcp")?.status).toBe(403)
  })
})

describe("ALLOWED_HOSTS is read with the other server settings", () => {
  const read = (value: string) =>
    Effect.exit(ServerConfig).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["ALLOWED_HOSTS", value]]))))

  it.effect("host names, with or without a port, in any case; unset is none", () =>
    Effect.gen(function*() {
      const exit = yield* read(" Api.Example.com, 10.0.0.5:3000 ,[::1]:8080,")
      expect(Exit.isSuccess(exit) && exit.value.allowedHosts).toEqual(["api.example.com", "10.0.0.5:3000", "[::1]:8080"])
      const unset = yield* Effect.exit(ServerConfig).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map())))
      expect(Exit.isSuccess(unset) && unset.value.allowedHosts).toEqual([])
    }))

  it.effect("a value that is not a host name stops the start naming ALLOWED_HOSTS", () =>
    Effect.gen(function*() {
      for (const value of ["https://api.example.com", "api.example.com/mcp", "api.example.com:99999", "a b", "::1"]) {
        const exit = yield* read(value)
        expect(Exit.isFailure(exit), value).toBe(true)
        if (Exit.isFailure(exit)) {
          expect(Option.getOrElse(failureLine(exit.cause), () => "")).toBe(
            `Cannot start the service: ALLOWED_HOSTS must be comma-separated host names, each optionally with a port (api.example.com, 10.0.0.5:3000), got ${JSON.stringify(value)}`
          )
        }
      }
    }))
})
