import { Duration, Effect, Exit, type Layer, Option, Redacted } from "effect"
import type { LlmSettings } from "@tks/adapters/extraction/llm"
import { json, type RecordedRequest, type ScriptedReply, scriptedServer } from "./scripted-server.js"

/** A chat-completions answer whose message is `content`, as OpenAI and compatible servers send it. */
export const completion = (content: string | null, finishReason = "stop"): ScriptedReply =>
  json(200, {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "test-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }],
    usage: { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 }
  })

/** LLM settings pointing at a fake chat-completions server at `baseUrl`. */
export const llmSettingsFor = (baseUrl: string, overrides: Partial<LlmSettings> = {}): LlmSettings => ({
  baseUrl: `${baseUrl}/v1`,
  apiKey: Option.some(Redacted.make("test-key")),
  model: "test-model",
  timeout: Duration.seconds(5),
  windowChars: 24_000,
  maxWindows: 8,
  ...overrides
})

/**
 * Runs `use` with the adapter `layerFor` builds, against a fake
 * chat-completions server on loopback scripted by `script`: its exit and the
 * requests the server received.
 */
export const againstScriptedModel = <A, E, S>(
  script: (request: RecordedRequest) => ScriptedReply,
  layerFor: (settings: LlmSettings) => Layer.Layer<S>,
  use: Effect.Effect<A, E, S>,
  overrides: Partial<LlmSettings> = {}
) =>
  Effect.gen(function*() {
    const server = yield* scriptedServer(script)
    const exit = yield* use.pipe(Effect.provide(layerFor(llmSettingsFor(server.baseUrl, overrides))), Effect.exit)
    return { exit, requests: server.requests }
  })

/** "succeeded", or the `reason` of the adapter's typed failure (a defect is named as one). */
export const failureReason = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.match(exit, {
    onSuccess: () => "succeeded",
    onFailure: (cause) => {
      const error: unknown = cause._tag === "Fail" ? cause.error : undefined
      return typeof error === "object" && error !== null && "reason" in error && typeof error.reason === "string"
        ? error.reason
        : `defect: ${cause}`
    }
  })
