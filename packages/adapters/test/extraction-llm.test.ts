import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Layer } from "effect"
import { KnowledgeExtractorLive } from "@tks/adapters/extraction/live"
import { llmExtractorLayer, type LlmSettings } from "@tks/adapters/extraction/llm"
import { type ExtractionInput, KnowledgeExtractor } from "@tks/adapters/extraction/port"
import { inputOf, securityStandard } from "./support/extraction-documents.js"
import { againstScriptedModel, completion, failureReason, llmSettingsFor } from "./support/chat-completions.js"
import { json, type RecordedRequest, type ScriptedReply, scriptedServer } from "./support/scripted-server.js"

const validAnswer = {
  title: "Information Security Standard",
  summary: "How accounts and laptops are protected.",
  topics: [{
    name: "Passwords and authentication",
    description: "Rules for signing in.",
    category: "it-security",
    items: [
      {
        kind: "policy",
        name: "Use MFA on all accounts",
        body: "Every account uses multi-factor authentication.",
        quote: "All accounts must use multi-factor authentication (MFA).",
        confidence: 0.9
      },
      { kind: "policy", name: "No shared accounts", quote: "Shared accounts are prohibited.", confidence: 0.8 }
    ]
  }]
}

/** Runs the LLM extractor against a fake chat-completions server scripted by `script`. */
const extractAgainst = (
  script: (request: RecordedRequest) => ScriptedReply,
  input: ExtractionInput = inputOf(securityStandard),
  overrides: Partial<LlmSettings> = {}
) =>
  againstScriptedModel(script, llmExtractorLayer, Effect.flatMap(KnowledgeExtractor, (extractor) => extractor.extract(input)), overrides)

const failureOf = failureReason

// scopedLive: the loopback server and timeouts run on the real clock.
describe("LLM knowledge extraction over an OpenAI-compatible chat-completions API", () => {
  it.scopedLive("a valid answer is decoded by the Extraction Schema (defaults filled in)", () =>
    Effect.gen(function*() {
      const { exit } = yield* extractAgainst(() => completion(JSON.stringify(validAnswer)))
      const extraction = yield* exit
      expect(extraction.title).toBe("Information Security Standard")
      expect(extraction.topics[0]?.items.map((item) => [item.kind, item.name, item.body, item.children])).toEqual([
        ["policy", "Use MFA on all accounts", "Every account uses multi-factor authentication.", []],
        ["policy", "No shared accounts", null, []]
      ])
    }))

  it.scopedLive("the request is POST /v1/chat/completions with the key, the model, the document and the JSON Schema", () =>
    Effect.gen(function*() {
      const { requests } = yield* extractAgainst(() => completion(JSON.stringify(validAnswer)))
      expect(requests).toHaveLength(1)
      const request = requests[0]!
      expect([request.method, request.url]).toEqual(["POST", "/v1/chat/completions"])
      expect(request.headers.authorization).toBe("Bearer test-key")
      const body = JSON.parse(request.body)
      expect(body.model).toBe("test-model")
      expect(body.temperature).toBe(0)
      expect(body.messages.map((message: { role: string }) => message.role)).toEqual(["system", "user"])
      expect(body.messages[1].content).toContain("Shared accounts are prohibited.")
      expect(body.messages[1].content).toContain("Document title: Uploaded document")
      expect(body.response_format.type).toBe("json_schema")
      expect(body.response_format.json_schema.name).toBe("extraction")
      expect(Object.keys(body.response_format.json_schema.schema.$defs)).toEqual(["ExtractedItem"])
      expect(body.response_format.json_schema.schema.properties.topics.items.properties.category.enum).toContain(
        "it-security"
      )
    }))

  it.scopedLive("an answer wrapped in a markdown code fence is still read", () =>
    Effect.gen(function*() {
      const { exit } = yield* extractAgainst(() => completion("```json\n" + JSON.stringify(validAnswer) + "\n```"))
      expect(failureOf(exit)).toBe("succeeded")
    }))

  it.scopedLive("an answer that breaks the Schema (unknown kind, confidence over 1, no quote) fails with the reason", () =>
    Effect.gen(function*() {
      for (const item of [
        { kind: "rule", name: "x", quote: "Shared accounts are prohibited.", confidence: 0.5 },
        { kind: "policy", name: "x", quote: "Shared accounts are prohibited.", confidence: 3 },
        { kind: "policy", name: "x", confidence: 0.5 }
      ]) {
        const answer = { topics: [{ name: "Devices", category: "it-security", items: [item] }] }
        const { exit } = yield* extractAgainst(() => completion(JSON.stringify(answer)))
        expect(failureOf(exit), JSON.stringify(item)).toMatch(/^the model's answer is not a valid extraction/)
      }
      const badCategory = { topics: [{ name: "Devices", category: "security", items: [] }] }
      const { exit } = yield* extractAgainst(() => completion(JSON.stringify(badCategory)))
      expect(failureOf(exit)).toMatch(/^the model's answer is not a valid extraction/)
    }))

  it.scopedLive("malformed JSON, an empty answer, a refusal and a cut-off answer fail with a reason", () =>
    Effect.gen(function*() {
      const cases: Array<[ScriptedReply, RegExp]> = [
        [completion("{\"topics\": [", "stop"), /not a valid extraction/],
        [completion(null), /no content/],
        [completion("{\"topics\": [{\"name\"", "length"), /cut off/],
        [json(200, { choices: [] }), /not a chat completion/],
        [json(200, { choices: [{ message: { content: null, refusal: "I cannot help" } }] }), /I cannot help/]
      ]
      for (const [reply, reason] of cases) {
        const { exit } = yield* extractAgainst(() => reply)
        expect(failureOf(exit)).toMatch(reason)
      }
    }))

  it.scopedLive("an HTTP error (500, 401) fails with the status; nothing is retried behind the caller's back", () =>
    Effect.gen(function*() {
      for (const status of [500, 401]) {
        const { exit, requests } = yield* extractAgainst(() => json(status, { error: { message: "boom" } }))
        expect(failureOf(exit)).toBe(`the model endpoint answered HTTP ${status}`)
        expect(requests).toHaveLength(1)
      }
    }))

  it.scopedLive("an endpoint that does not answer in time, or cannot be reached, fails", () =>
    Effect.gen(function*() {
      const slow = yield* extractAgainst(
        () => ({ ...completion(JSON.stringify(validAnswer)), delayMs: 5_000 }),
        inputOf(securityStandard),
        { timeout: Duration.millis(200) }
      )
      expect(failureOf(slow.exit)).toMatch(/did not answer within/)
      const closed = yield* Effect.scoped(scriptedServer(() => completion("{}")).pipe(Effect.map((server) => server.baseUrl)))
      const exit = yield* KnowledgeExtractor.pipe(
        Effect.flatMap((extractor) => extractor.extract(inputOf(securityStandard))),
        Effect.provide(llmExtractorLayer(llmSettingsFor(closed))),
        Effect.exit
      )
      expect(failureOf(exit)).toMatch(/^the model endpoint could not be reached/)
    }))

  it.scopedLive("a long document is sent in windows of whole chapters; answers merge by topic; past the last window nothing is sent", () =>
    Effect.gen(function*() {
      const section = (n: number) => `## Section ${n}\n\n${`Staff must follow rule ${n}. `.repeat(30)}\n\n`
      // Sections of about 860 characters: two per 2,000-character window, four windows, three sent.
      const markdown = Array.from({ length: 8 }, (_, n) => section(n)).join("")
      const answerFor = (request: RecordedRequest) => {
        const part = /This is part (\d+) of (\d+)/.exec(JSON.parse(request.body).messages[1].content)
        return completion(JSON.stringify({
          title: part?.[1] === "1" ? "Rules" : "Later title",
          topics: [{
            name: "Rules",
            category: "operations",
            items: [{ kind: "policy", name: `Part ${part?.[1]} of ${part?.[2]}`, quote: "Staff must follow", confidence: 0.5 }]
          }]
        }))
      }
      const { exit, requests } = yield* extractAgainst(answerFor, inputOf(markdown), { windowChars: 2_000, maxWindows: 3 })
      const extraction = yield* exit
      expect(requests).toHaveLength(3)
      expect(extraction.title).toBe("Rules")
      expect(extraction.topics.map((topic) => topic.items.map((item) => item.name))).toEqual([[
        "Part 1 of 3",
        "Part 2 of 3",
        "Part 3 of 3"
      ]])
      const sent = requests.map((request) => JSON.parse(request.body).messages[1].content as string)
      expect(sent[0]).toContain("## Section 0\n")
      expect(sent[0]).toContain("## Section 1\n")
      expect(sent[2]).toContain("## Section 5\n")
      expect(sent.join("")).not.toContain("## Section 6")
    }))
})

const passwordReset = `# Password reset

Staff reset a forgotten password in the self-service portal. The portal is open 24 hours a day.

## Steps

1. Open the portal at id.example.com.
2. Click **Forgot password**.
3. Enter the code sent to your phone.

## Lost phone

Staff who lost their phone must call the service desk on 4444.
`
const fact = (quote: string) => ({ kind: "fact", name: quote.slice(0, 40), quote, confidence: 0.7 })
const stepsProcess = {
  kind: "process",
  name: "Reset a password",
  quote: "Open the portal at id.example.com.",
  confidence: 0.8,
  children: [
    { kind: "process", name: "Open the portal", quote: "Open the portal at id.example.com.", confidence: 0.8 },
    { kind: "process", name: "Click Forgot password", quote: "Click **Forgot password**.", confidence: 0.8 },
    { kind: "process", name: "Enter the code", quote: "Enter the code sent to your phone.", confidence: 0.8 }
  ]
}
const topicsOf = (extraction: { readonly topics: ReadonlyArray<{ readonly name: string; readonly items: ReadonlyArray<{ readonly name: string }> }> }) =>
  extraction.topics.map((topic) => `${topic.name}: ${topic.items.map((item) => item.name).join(", ")}`)

describe("LLM knowledge extraction keeps the document's order and never makes a label a topic", () => {
  it.scopedLive("the prompt asks for the document's order and says a label heading is not a topic", () =>
    Effect.gen(function*() {
      const { requests } = yield* extractAgainst(() => completion(JSON.stringify(validAnswer)))
      const system = JSON.parse(requests[0]!.body).messages[0].content as string
      expect(system).toContain("Keep the document's order")
      expect(system).toContain("(Steps, Procedure, Overview, Introduction, Summary, Notes, Appendix, Contents")
    }))

  it.scopedLive("the model's order of items and steps is kept, even when their names sort differently", () =>
    Effect.gen(function*() {
      const answer = {
        topics: [{
          name: "Password reset",
          category: "it-security",
          items: [fact("The portal is open 24 hours a day."), stepsProcess]
        }]
      }
      const extraction = yield* (yield* extractAgainst(() => completion(JSON.stringify(answer)), inputOf(passwordReset))).exit
      expect(topicsOf(extraction)).toEqual(["Password reset: The portal is open 24 hours a day., Reset a password"])
      expect(extraction.topics[0]!.items[1]!.children.map((step) => step.name)).toEqual([
        "Open the portal",
        "Click Forgot password",
        "Enter the code"
      ])
    }))

  it.scopedLive("a topic the model named after a Steps heading is not a topic: its items join the enclosing topic, in document order", () =>
    Effect.gen(function*() {
      // The model lists the label first and the real topics after: the result follows the document.
      const answer = {
        topics: [
          { name: "Steps", category: "it-security", items: [stepsProcess] },
          { name: "Password reset", category: "it-security", items: [fact("The portal is open 24 hours a day.")] },
          {
            name: "Lost phone",
            category: "it-security",
            items: [{ ...fact("Staff who lost their phone must call the service desk on 4444."), kind: "policy" }]
          }
        ]
      }
      const extraction = yield* (yield* extractAgainst(() => completion(JSON.stringify(answer)), inputOf(passwordReset))).exit
      expect(topicsOf(extraction)).toEqual([
        "Password reset: The portal is open 24 hours a day., Reset a password",
        "Lost phone: Staff who lost their phone must call the"
      ])
      expect(extraction.topics[0]!.category).toBe("it-security")
    }))

  it.scopedLive("a topic the model made of a heading over nothing but a numbered procedure joins the enclosing topic as that process", () =>
    Effect.gen(function*() {
      const markdown = "# Onboarding\n\nEvery new hire gets a buddy.\n\n## Before day one\n\n1. Create the record.\n2. Order the laptop.\n"
      const answer = {
        topics: [
          { name: "Onboarding", category: "people", items: [fact("Every new hire gets a buddy.")] },
          {
            name: "Before day one",
            category: "people",
            items: [{
              kind: "process",
              name: "Before day one",
              quote: "Create the record.",
              confidence: 0.8,
              children: [
                { kind: "process", name: "Create the record", quote: "Create the record.", confidence: 0.8 },
                { kind: "process", name: "Order the laptop", quote: "Order the laptop.", confidence: 0.8 }
              ]
            }]
          }
        ]
      }
      const extraction = yield* (yield* extractAgainst(() => completion(JSON.stringify(answer)), inputOf(markdown))).exit
      expect(topicsOf(extraction)).toEqual(["Onboarding: Every new hire gets a buddy., Before day one"])
      expect(extraction.topics[0]!.items[1]!.children.map((step) => step.name)).toEqual(["Create the record", "Order the laptop"])
    }))

  it.scopedLive("a label the document does not have as a heading (Overview) is not a topic either: its items go where their quotes are", () =>
    Effect.gen(function*() {
      const answer = {
        topics: [
          { name: "Password reset", category: "it-security", items: [stepsProcess] },
          { name: "Overview", category: "it-security", items: [fact("Staff reset a forgotten password in the self-service portal.")] }
        ]
      }
      const extraction = yield* (yield* extractAgainst(() => completion(JSON.stringify(answer)), inputOf(passwordReset))).exit
      expect(topicsOf(extraction)).toEqual([
        "Password reset: Staff reset a forgotten password in the, Reset a password"
      ])
    }))
})

describe("KnowledgeExtractorLive chooses the adapter from the environment", () => {
  const nameWith = (entries: Array<[string, string]>) =>
    KnowledgeExtractor.pipe(
      Effect.map((extractor) => extractor.name),
      Effect.provide(KnowledgeExtractorLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries))))))
    )

  it.effect("no LLM_API_KEY and no LLM_BASE_URL: the local extractor", () =>
    Effect.gen(function*() {
      expect(yield* nameWith([])).toBe("local")
      expect(yield* nameWith([["LLM_API_KEY", "  "]])).toBe("local")
    }))

  it.effect("LLM_API_KEY set: the LLM extractor with LLM_MODEL (default gpt-4o-mini)", () =>
    Effect.gen(function*() {
      expect(yield* nameWith([["LLM_API_KEY", "k"]])).toBe("llm:gpt-4o-mini")
      expect(yield* nameWith([["LLM_API_KEY", "k"], ["LLM_MODEL", "llama3.1"]])).toBe("llm:llama3.1")
      expect(yield* nameWith([["LLM_BASE_URL", "http://127.0.0.1:11434/v1"]])).toBe("llm:gpt-4o-mini")
    }))
})
