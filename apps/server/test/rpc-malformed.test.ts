import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix } from "./support/callers.js"
import { raw, type RawResponse, TestServerLive } from "./support/server.js"

/**
 * /rpc refuses like /mcp, at the HTTP level: a missing or bad token is 401
 * with `WWW-Authenticate: Bearer` before the body is read, malformed input a
 * 400 with the JSON error body. It used to answer 200 with `Die` exits
 * carrying schema dumps or JavaScript error text, and a bad token with a 200
 * `Unauthorized` exit.
 */
const ndjson = { "content-type": "application/ndjson" }
const line = (value: unknown) => `${JSON.stringify(value)}\n`
const request = (tag: string, payload: unknown, id = "0") => line({ _tag: "Request", id, tag, payload, headers: [] })

const LEAKS = /TypeError|SyntaxError|Cannot read|undefined is not|is not a function|readonly|Expected \{|at [\w.]+ \(|Die|Defect/

const expectClean400 = (response: RawResponse, label: string) => {
  expect(response.status, `${label}: ${response.text.slice(0, 300)}`).toBe(400)
  expect(response.headers.get("content-type"), label).toContain("application/json")
  expect(response.json, label).toMatchObject({ _tag: "BadRequest", code: expect.stringMatching(/^(VALIDATION_ERROR|MALFORMED_JSON)$/), message: expect.any(String) })
  expect(response.json.message.length, label).toBeLessThanOrEqual(300)
  expect(response.text, label).not.toMatch(LEAKS)
}

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

const malformed: ReadonlyArray<readonly [string, string]> = [
  ["null", "null"],
  ["an empty array", "[]"],
  ["an empty body", ""],
  ["garbage", "\u0001\u0002not json at all"],
  ["half a line", "{\"_tag\": \"Request\", \"id\": "],
  ["a number", "42"],
  ["a string", "\"Request\""],
  ["a wrong tag", request("no_such_tool", {})],
  ["a message that is not a request", line({ _tag: "Ping" })],
  ["an id that is not digits", request("list_categories", {}, "abc")],
  ["headers that are not pairs", line({ _tag: "Request", id: "0", tag: "list_categories", payload: {}, headers: "x" })],
  ["a null payload", request("list_categories", null)],
  ["a payload of the wrong type", request("list_content", { limit: "many" })],
  ["a payload field of the wrong type", request("get_topic", { topicId: 5 })],
  ["a payload missing its field", request("get_topic", {})],
  ["a good line then a bad one", request("list_categories", {}) + "null\n"],
  ["deep nesting", deep(10_000)],
  ["deep nesting in a payload", request("get_topic", { topicId: JSON.parse(deep(2_000)) })]
]

layer(TestServerLive, { excludeTestServices: true })("malformed /rpc requests", (it) => {
  it.effect("no token or a bad one: 401 with WWW-Authenticate: Bearer and the JSON body, whatever the body, as /mcp", () =>
    Effect.gen(function*() {
      for (const token of [undefined, "tks_this-token-was-never-issued"]) {
        for (const body of [request("list_categories", {}), "null", "garbage"]) {
          const response = yield* raw("POST", "/rpc", { token, body, headers: ndjson })
          const label = `${token ?? "no token"} ${body.slice(0, 20)}`
          expect(response.status, label).toBe(401)
          expect(response.headers.get("www-authenticate"), label).toMatch(/^Bearer/)
          expect(response.json, label).toMatchObject({ _tag: "Unauthorized", code: "UNAUTHORIZED", message: expect.any(String) })
          const mcp = yield* raw("POST", "/mcp", { token, body: "{}" })
          expect(mcp.status, label).toBe(response.status)
        }
      }
    }))

  it.effect("malformed input with a valid token: 400 with a clean JSON error body, no schema dump or JavaScript error text", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      for (const [label, body] of malformed) {
        expectClean400(yield* raw("POST", "/rpc", { token: tokens.viewer, body, headers: ndjson }), label)
      }
    }))

  it.effect("the 400 names the field of the payload that is wrong", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const response = yield* raw("POST", "/rpc", { token: tokens.viewer, body: request("get_topic", { topicId: 5 }), headers: ndjson })
      expect(response.json.code).toBe("VALIDATION_ERROR")
      expect(response.json.issues).toEqual([{ path: "payload.topicId", message: expect.any(String) }])
      const unknown = yield* raw("POST", "/rpc", { token: tokens.viewer, body: request("drop_tables", {}), headers: ndjson })
      expect(unknown.json.message).toContain("drop_tables")
    }))

  it.effect("a payload field the tool does not declare is 400 naming it, as on /mcp and the HTTP endpoints", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const response = yield* raw("POST", "/rpc", { token: tokens.viewer, body: request("list_content", { lmit: 5, limit: 5 }), headers: ndjson })
      expectClean400(response, "undeclared field")
      expect(response.json.issues).toEqual([{ path: "payload.lmit", message: expect.stringContaining("is unexpected") }])
    }))

  it.effect("a well-formed request is answered by the RPC server: 200 with its exit", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const response = yield* raw("POST", "/rpc", { token: tokens.viewer, body: request("list_categories", {}), headers: ndjson })
      expect(response.status).toBe(200)
      expect(JSON.parse(response.text.trim().split("\n")[0]!)).toMatchObject({ _tag: "Exit", requestId: "0", exit: { _tag: "Success" } })
    }))
})
