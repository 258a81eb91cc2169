import { expect, layer } from "@effect/vitest"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { ConfigProvider, Effect, Layer } from "effect"
import { tracingWith } from "../src/observability/tracing.js"
import { acmeCallerMatrix } from "./support/callers.js"
import { mcpClient } from "./support/mcp.js"
import { raw, TestServerLive } from "./support/server.js"

// A small answer bound (100 tokens, 400 characters) for this server only, so a short list already overflows.
const SmallAnswers = Layer.setConfigProvider(
  ConfigProvider.fromMap(new Map([["MCP_RESULT_MAX_TOKENS", "100"]])).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
)
const exporter = new InMemorySpanExporter()
const Server = TestServerLive.pipe(
  Layer.provide(tracingWith(new SimpleSpanProcessor(exporter), "tks-test")),
  Layer.provide(SmallAnswers)
)

const texts = (result: unknown) => ((result as { content: ReadonlyArray<{ text: string }> }).content).map((part) => part.text)

layer(Server, { excludeTestServices: true })("bounded tool answers and the caller's trace", (it) => {
  it.scoped("a page longer than the bound is cut with the service's nextCursor and a sentence saying so; following the cursors reads the whole list", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.admin)
      const whole = yield* raw("GET", "/v1/company-roles?limit=100", { token: tokens.admin })
      const expected = (whole.json.data as ReadonlyArray<{ id: string }>).map((role) => role.id)
      expect(expected.length).toBeGreaterThan(4)

      const first = yield* Effect.promise(() => client.callTool({ name: "list_company_roles", arguments: { limit: 50 } }))
      const [json, note] = texts(first)
      expect(json!.length).toBeLessThanOrEqual(400)
      const page = first.structuredContent as { data: ReadonlyArray<{ id: string }>; nextCursor: string | null }
      expect(page.data.length).toBeLessThan(expected.length)
      expect(page.nextCursor).not.toBeNull()
      expect(note).toMatch(new RegExp(`^This page was cut to ${page.data.length} of the ${expected.length} entries asked for`))

      const seen = [...page.data.map((role) => role.id)]
      let cursor = page.nextCursor
      for (let i = 0; cursor !== null && i < 50; i++) {
        const next = yield* Effect.promise(() => client.callTool({ name: "list_company_roles", arguments: { limit: 50, cursor } }))
        const body = next.structuredContent as { data: ReadonlyArray<{ id: string }>; nextCursor: string | null }
        expect(texts(next)[0]!.length).toBeLessThanOrEqual(400)
        seen.push(...body.data.map((role) => role.id))
        cursor = body.nextCursor
      }
      expect(seen).toEqual(expected)
    }))

  it.scoped("an answer within the bound is whole, with no sentence added", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.admin)
      const small = yield* Effect.promise(() => client.callTool({ name: "list_company_roles", arguments: { limit: 1 } }))
      expect(texts(small)).toHaveLength(1)
      expect((small.structuredContent as { data: ReadonlyArray<unknown> }).data).toHaveLength(1)
    }))

  it.scoped("resource links take only what the bound leaves after the text: a short answer keeps its link, one that fills the bound carries none", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.admin)
      const types = (answer: unknown) => ((answer as { content: ReadonlyArray<{ type: string }> }).content).map((part) => part.type)
      const short = yield* Effect.promise(() =>
        client.callTool({ name: "get_content_knowledge", arguments: { contentId: result.ids.content.planning! } })
      )
      expect(types(short)).toEqual(["text", "resource_link"])
      const [text, link] = short.content as ReadonlyArray<{ text?: string }>
      expect(text!.text!.length + JSON.stringify(link).length).toBeLessThanOrEqual(400)
      // The item's JSON alone is longer than 400 characters (an answer that is not a page is never cut).
      const long = yield* Effect.promise(() => client.callTool({ name: "get_item", arguments: { itemId: result.ids.items.rollout! } }))
      expect(texts(long)[0]!.length).toBeGreaterThan(400)
      expect(types(long)).toEqual(["text"])
    }))

  it.scoped("a traceparent in the call's _meta puts the tool's span in the caller's trace, linked to the /mcp request's span", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.admin)
      exporter.reset()
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
      const parentId = "00f067aa0ba902b7"
      yield* Effect.promise(() =>
        client.callTool({ name: "list_company_roles", arguments: { limit: 1 }, _meta: { traceparent: `00-${traceId}-${parentId}-01` } })
      )
      yield* Effect.sleep("200 millis")
      const spans = exporter.getFinishedSpans()
      const tool = spans.find((span) => span.name === "tools/call list_company_roles")
      expect(tool, spans.map((span) => span.name).join(", ")).toBeDefined()
      expect(tool!.spanContext().traceId).toBe(traceId)
      expect(tool!.parentSpanContext?.spanId).toBe(parentId)
      const request = spans.find((span) => span.name === "POST /mcp" && span.spanContext().traceId !== traceId)
      expect(tool!.links.map((link) => link.context.spanId)).toContain(request!.spanContext().spanId)
    }))
})
