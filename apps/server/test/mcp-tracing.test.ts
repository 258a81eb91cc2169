import { expect, layer } from "@effect/vitest"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer } from "effect"
import { tracingWith } from "../src/observability/tracing.js"
import { acmeCallerMatrix } from "./support/callers.js"
import { callTool, mcpClient } from "./support/mcp.js"
import { TestServerLive } from "./support/server.js"
import { descendsFrom } from "./support/spans.js"

const exporter = new InMemorySpanExporter()
const TracedServer = TestServerLive.pipe(Layer.provide(tracingWith(new SimpleSpanProcessor(exporter), "tks-test")))

layer(TracedServer, { excludeTestServices: true })("MCP tracing", (it) => {
  it.scoped("each tool call is a span under the /mcp request span, with the tool's SQL under it", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      exporter.reset()
      const call = yield* callTool(client, "get_topic", { topicId: result.ids.topics.deploy! })
      expect(call.isError).toBe(false)
      yield* Effect.sleep("200 millis")
      const spans = exporter.getFinishedSpans()
      const names = spans.map((span) => span.name).join(", ")
      const tool = spans.find((span) => span.name === "tools/call get_topic")
      expect(tool, names).toBeDefined()
      expect(tool!.attributes["gen_ai.tool.name"]).toBe("get_topic")
      const parent = spans.find((span) => span.spanContext().spanId === tool!.parentSpanContext?.spanId)
      expect(parent?.name, names).toBe("POST /mcp")
      expect(parent?.attributes["url.path"] ?? parent?.attributes["http.url"] ?? "", names).toMatch(/\/mcp/)
      const sql = spans.filter((span) => span.attributes["db.query.text"] !== undefined && span.spanContext().traceId === tool!.spanContext().traceId)
      expect(sql.some(descendsFrom(spans, tool!)), names).toBe(true)
    }))
})
