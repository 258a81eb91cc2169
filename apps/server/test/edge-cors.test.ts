import { describe, expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { CorsOriginsConfig } from "../src/http/cors.js"
import { probeServer } from "./support/edge-probe.js"
import { raw } from "./support/server.js"

const ALLOWED = "https://app.example.test"
const preflight = (origin: string, path = "/probe/echo") =>
  raw("OPTIONS", path, {
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" }
  })

layer(probeServer({ CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` }), { excludeTestServices: true })("CORS with CORS_ORIGINS set", (it) => {
  describe("preflight", () => {
    it.effect("a preflight from an allowed origin is 204 with the methods of the path and the allowed headers", () =>
      Effect.gen(function*() {
        const response = yield* preflight(ALLOWED)
        expect(response.status).toBe(204)
        expect(response.text).toBe("")
        expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED)
        expect(response.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS")
        expect(response.headers.get("access-control-allow-headers")).toContain("Authorization")
        expect(response.headers.get("access-control-allow-headers")).toContain("Content-Type")
        expect(response.headers.get("access-control-max-age")).toBe("600")
        expect(response.headers.get("vary")).toContain("Origin")
      }))

    it.effect("a preflight from another origin gets no CORS headers (the browser refuses)", () =>
      Effect.gen(function*() {
        const response = yield* preflight("https://evil.example.test")
        expect(response.headers.get("access-control-allow-origin")).toBeNull()
        expect(response.headers.get("access-control-allow-methods")).toBeNull()
      }))

    it.effect("a preflight for an unknown path is 404 with the JSON body and the origin allowed to read it", () =>
      Effect.gen(function*() {
        const response = yield* preflight(ALLOWED, "/nowhere")
        expect(response.status).toBe(404)
        expect(response.json).toMatchObject({ code: "NOT_FOUND" })
        expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED)
      }))
  })

  describe("actual requests", () => {
    it.effect("an allowed origin gets Access-Control-Allow-Origin and the exposed headers, on success and on errors", () =>
      Effect.gen(function*() {
        for (const [path, status] of [["/probe/items?n=1", 200], ["/probe/items?n=abc", 400], ["/nowhere", 404]] as const) {
          const response = yield* raw("GET", path, { headers: { origin: ALLOWED } })
          expect(response.status).toBe(status)
          expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED)
          const exposed = response.headers.get("access-control-expose-headers") ?? ""
          for (const name of ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "X-Request-Id"]) {
            expect(exposed).toContain(name)
          }
          expect(response.headers.get("vary")).toContain("Origin")
        }
      }))

    it.effect("another origin, or none, gets no Access-Control headers", () =>
      Effect.gen(function*() {
        for (const headers of [{ origin: "https://evil.example.test" }, {}]) {
          const response = yield* raw("GET", "/probe/items?n=1", { headers })
          expect(response.status).toBe(200)
          expect(response.headers.get("access-control-allow-origin")).toBeNull()
          expect(response.headers.get("access-control-expose-headers")).toBeNull()
        }
      }))
  })
})

layer(probeServer({ CORS_ORIGINS: "" }), { excludeTestServices: true })("CORS with CORS_ORIGINS unset", (it) => {
  it.effect("no CORS headers at all; a preflight is a plain OPTIONS: 204 with Allow", () =>
    Effect.gen(function*() {
      const response = yield* raw("GET", "/probe/items?n=1", { headers: { origin: ALLOWED } })
      expect(response.headers.get("access-control-allow-origin")).toBeNull()
      expect(response.headers.get("vary") ?? "").not.toContain("Origin")
      const options = yield* preflight(ALLOWED)
      expect(options.status).toBe(204)
      expect(options.headers.get("allow")).toBe("POST, OPTIONS")
      expect(options.headers.get("access-control-allow-origin")).toBeNull()
    }))

  it.effect("CORS_ORIGINS must list origins: a path or a bare word is a configuration error naming the variable", () =>
    Effect.gen(function*() {
      const read = (value: string) =>
        Effect.either(CorsOriginsConfig).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["CORS_ORIGINS", value]]))))
      expect(yield* read("https://a.test, http://localhost:3000")).toEqual(Either.right(["https://a.test", "http://localhost:3000"]))
      expect(yield* read("*")).toEqual(Either.right(["*"]))
      for (const bad of ["https://a.test/app", "example.com", "ftp://a.test"]) {
        const result = yield* read(bad)
        expect(Either.isLeft(result), bad).toBe(true)
        if (Either.isLeft(result)) expect(String(result.left)).toContain("CORS_ORIGINS")
      }
    }))
})
