import { describe, expect, it, layer } from "@effect/vitest"
import { SpanKind } from "@opentelemetry/api"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer } from "effect"
import { redactQuery } from "../src/observability/redaction.js"
import { tracingWith } from "../src/observability/tracing.js"
import { withCallerMatrix } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

const exporter = new InMemorySpanExporter()
const TracedServer = TestServerLive.pipe(Layer.provide(tracingWith(new SimpleSpanProcessor(exporter), "tks-test")))

describe("credentials in a URL's query", () => {
  it("the credential parameters' values are replaced, whatever the case of their names; other parameters stay", () => {
    expect(redactQuery("/v1/me?access_token=SECRET&limit=5&Token=SECRET&API_KEY=SECRET&monkey=banana"))
      .toBe("/v1/me?access_token=REDACTED&limit=5&Token=REDACTED&API_KEY=REDACTED&monkey=banana")
    expect(redactQuery("key=SECRET&sig=SECRET&signature=SECRET&code=SECRET&password=SECRET&secret=SECRET&keys=1"))
      .toBe("key=REDACTED&sig=REDACTED&signature=REDACTED&code=REDACTED&password=REDACTED&secret=REDACTED&keys=1")
    expect(redactQuery("http://h/p?q=forklift#token=x")).toBe("http://h/p?q=forklift#token=x")
  })
})

layer(TracedServer, { excludeTestServices: true })("tracing without credentials", (it) => {
  it.effect("a token sent as ?access_token= appears in no exported span; the Authorization header is not recorded", () =>
    Effect.gen(function*() {
      const { tokens } = yield* withCallerMatrix({ organization: { name: "Redacted Org" } })
      exporter.reset()
      const query = yield* raw("GET", "/v1/me?access_token=SECRET-IN-QUERY&limit=5")
      expect(query.status).toBe(401)
      const header = yield* raw("GET", "/v1/me", { token: tokens.viewer })
      expect(header.status).toBe(200)
      yield* Effect.sleep("200 millis")
      const spans = exporter.getFinishedSpans()
      const exported = JSON.stringify(spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })))
      expect(exported).not.toContain("SECRET")
      expect(exported).not.toContain(tokens.viewer)

      const servers = spans.filter((span) => span.kind === SpanKind.SERVER)
      const withQuery = servers.find((span) => String(span.attributes["url.path"]) === "/v1/me" && span.attributes["url.query"] !== undefined)
      expect(withQuery?.attributes["url.query"]).toBe("access_token=REDACTED&limit=5")
      expect(String(withQuery?.attributes["url.full"])).toMatch(/\/v1\/me\?access_token=REDACTED&limit=5$/)
      expect(servers.length).toBe(2)
      expect(servers.every((span) => span.attributes["http.request.header.authorization"] === undefined)).toBe(true)
    }))

  it.effect("of the request's headers only the request id, user agent and content length are recorded; the answer's request id too", () =>
    Effect.gen(function*() {
      const { tokens } = yield* withCallerMatrix({ organization: { name: "Headers Org" } })
      exporter.reset()
      // Refused (the body lacks every field): its span records the request all the same.
      const body = JSON.stringify({ title: "Traced" })
      const response = yield* raw("POST", "/v1/documents", {
        token: tokens.viewer,
        body,
        headers: { "x-request-id": "trace-me-1", "user-agent": "probe/1.0", "x-private-note": "not for traces", cookie: "session=SECRET" }
      })
      expect(response.headers.get("x-request-id")).toBe("trace-me-1")
      yield* Effect.sleep("200 millis")
      const server = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER && span.attributes["url.path"] === "/v1/documents")
      expect(server).toBeDefined()
      const headers = Object.keys(server!.attributes).filter((key) => key.startsWith("http.request.header.") || key.startsWith("http.response.header."))
      expect(headers.sort()).toEqual([
        "http.request.header.content-length",
        "http.request.header.x-request-id",
        "http.response.header.x-request-id"
      ])
      expect(server!.attributes["http.request.header.x-request-id"]).toEqual(["trace-me-1"])
      expect(server!.attributes["http.request.header.content-length"]).toEqual([String(Buffer.byteLength(body))])
      expect(server!.attributes["http.response.header.x-request-id"]).toEqual(["trace-me-1"])
      expect(server!.attributes["user_agent.original"]).toBe("probe/1.0")
      expect(JSON.stringify(server!.attributes)).not.toContain("SECRET")
    }))
})
