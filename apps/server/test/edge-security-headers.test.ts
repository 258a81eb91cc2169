import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DOCS_POLICY } from "../src/http/security-headers.js"
import { probeServer } from "./support/edge-probe.js"
import { raw } from "./support/server.js"

const expectCommon = (headers: Headers) => {
  expect(headers.get("x-content-type-options")).toBe("nosniff")
  expect(headers.get("referrer-policy")).toBe("no-referrer")
  expect(headers.get("x-frame-options")).toBe("DENY")
  expect(headers.get("cross-origin-resource-policy")).toBe("same-origin")
}

layer(probeServer({ PUBLIC_URL: "http://localhost:3000" }), { excludeTestServices: true })("security headers over http", (it) => {
  describe("every response", () => {
    it.effect("API answers, successes and errors alike, carry the headers and the strict policy", () =>
      Effect.gen(function*() {
        const cases = [["GET", "/probe/items?n=1"], ["GET", "/nowhere"], ["DELETE", "/probe/items"], ["GET", "/defect"], ["OPTIONS", "/probe/items"]] as const
        for (const [method, path] of cases) {
          const response = yield* raw(method, path)
          expectCommon(response.headers)
          expect(response.headers.get("content-security-policy"), path).toBe("default-src 'none'; frame-ancestors 'none'")
          expect(response.headers.get("strict-transport-security")).toBeNull()
        }
      }))

    it.effect("the docs page gets a policy that lets its inline viewer run and still forbids framing", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/docs")
        expect(response.status).toBe(200)
        expectCommon(response.headers)
        const policy = response.headers.get("content-security-policy") ?? ""
        expect(policy).toBe(DOCS_POLICY)
        expect(policy).toContain("script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'")
        // WebAssembly compiles; JavaScript eval stays forbidden.
        expect(policy.split(/[ ;]+/)).not.toContain("'unsafe-eval'")
        expect(policy).toContain("frame-ancestors 'none'")
        expect(policy).toContain("connect-src 'self'")
      }))
  })
})

layer(probeServer({ PUBLIC_URL: "https://tks.example.test" }), { excludeTestServices: true })("security headers over https", (it) => {
  it.effect("Strict-Transport-Security is sent only when PUBLIC_URL is https", () =>
    Effect.gen(function*() {
      for (const path of ["/probe/items?n=1", "/nowhere", "/docs"]) {
        const response = yield* raw("GET", path)
        expect(response.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains")
      }
    }))
})
