import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { allowedMethodsTable, routesOfApi } from "../src/http/method-not-allowed.js"
import { probeServer } from "./support/edge-probe.js"
import { raw } from "./support/server.js"

describe("the method table, from the Api definition", () => {
  const allowed = allowedMethodsTable([...routesOfApi(Api), { method: "GET", path: "/health" }])

  it("every endpoint of the Api is in it, under /v1, path parameters matching any one segment", () => {
    expect(allowed("/v1/me")).toEqual(["GET", "HEAD", "OPTIONS"])
    expect(allowed("/v1/members")).toEqual(["GET", "HEAD", "OPTIONS"])
    expect(allowed("/v1/members/usr_123")).toEqual(["GET", "HEAD", "OPTIONS"])
    expect(allowed("/health")).toEqual(["GET", "HEAD", "OPTIONS"])
  })

  it("unknown paths, extra segments, an empty id and a trailing slash are not in it", () => {
    for (const path of ["/v1/nothing", "/v1/members/usr_1/extra", "/v1/members/", "/members", "/v1/me/"]) {
      expect(allowed(path), path).toBeUndefined()
    }
  })

  it("methods of several routes on one path are listed together, in a stable order", () => {
    const table = allowedMethodsTable([{ method: "POST", path: "/x/:id" }, { method: "GET", path: "/x/:id" }, { method: "DELETE", path: "/x/:id" }])
    expect(table("/x/1")).toEqual(["GET", "HEAD", "POST", "DELETE", "OPTIONS"])
  })
})

layer(probeServer(), { excludeTestServices: true })("a wrong method on a known path", (it) => {
  it.effect("is 405 METHOD_NOT_ALLOWED with Allow and the JSON body", () =>
    Effect.gen(function*() {
      for (const [method, path, allow] of [["DELETE", "/probe/items", "GET, HEAD, OPTIONS"], ["GET", "/probe/echo", "POST, OPTIONS"], ["PUT", "/defect", "GET, HEAD, OPTIONS"]] as const) {
        const response = yield* raw(method, path)
        expect(response.status, `${method} ${path}`).toBe(405)
        expect(response.headers.get("allow")).toBe(allow)
        expect(response.json).toMatchObject({ code: "METHOD_NOT_ALLOWED", message: expect.stringContaining(method) })
      }
    }))

  it.effect("OPTIONS without a CORS preflight is 204 with Allow", () =>
    Effect.gen(function*() {
      const response = yield* raw("OPTIONS", "/probe/items")
      expect(response.status).toBe(204)
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
      expect(response.text).toBe("")
    }))

  it.effect("an unknown path stays 404, whatever the method", () =>
    Effect.gen(function*() {
      for (const method of ["GET", "DELETE", "OPTIONS"]) {
        const response = yield* raw(method, "/probe/nothing")
        expect(response.status, method).toBe(404)
        expect(response.json).toMatchObject({ code: "NOT_FOUND" })
      }
    }))

  it.effect("HEAD on a GET route answers like GET, without a body", () =>
    Effect.gen(function*() {
      const response = yield* raw("HEAD", "/probe/items?n=1")
      expect(response.status).toBe(200)
      expect(response.text).toBe("")
    }))
})
