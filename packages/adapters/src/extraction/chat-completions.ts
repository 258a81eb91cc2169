import { AiError, LanguageModel, type Prompt, type Response } from "@effect/ai"
import { OpenAiClient } from "@effect/ai-openai"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Effect, JSONSchema, Layer, Schema, Stream } from "effect"

/**
 * An @effect/ai LanguageModel over the OpenAI-compatible chat-completions
 * endpoint (`POST {LLM_BASE_URL}/chat/completions`). @effect/ai-openai's own
 * model speaks OpenAI's newer Responses API, which many OpenAI-compatible
 * servers (local model runners, gateways) do not serve; chat completions is
 * the shape they all share. The OpenAiClient still provides the base URL, the
 * bearer key and the HTTP client. The answer is read leniently (only the
 * fields used), because compatible servers differ in the rest.
 */
const ChatCompletion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({
    message: Schema.Struct({
      content: Schema.optional(Schema.NullOr(Schema.String)),
      refusal: Schema.optional(Schema.NullOr(Schema.String))
    }),
    finish_reason: Schema.optional(Schema.NullOr(Schema.String))
  })),
  usage: Schema.optional(Schema.NullOr(Schema.Struct({
    prompt_tokens: Schema.optional(Schema.Number),
    completion_tokens: Schema.optional(Schema.Number),
    total_tokens: Schema.optional(Schema.Number)
  })))
})

const source = { module: "ChatCompletions", method: "generateText" } as const

const textOf = (parts: ReadonlyArray<{ readonly type: string }>) =>
  parts.flatMap((part) => "text" in part && typeof part.text === "string" && part.type === "text" ? [part.text] : [])
    .join("\n")

const messagesOf = (prompt: Prompt.Prompt) =>
  prompt.content.flatMap((message) => {
    switch (message.role) {
      case "system":
        return [{ role: "system", content: message.content }]
      case "user":
        return [{ role: "user", content: textOf(message.content) }]
      case "assistant":
        return [{ role: "assistant", content: textOf(message.content) }]
      case "tool":
        return []
    }
  })

const finishReasonOf = (reason: string | null | undefined): typeof Response.FinishReason.Encoded => {
  switch (reason) {
    case "stop":
    case "length":
      return reason
    case "content_filter":
      return "content-filter"
    case "tool_calls":
    case "function_call":
      return "tool-calls"
    default:
      return "unknown"
  }
}

/** Some models wrap JSON in a markdown fence even when asked for JSON only. */
const withoutFence = (text: string) => /^\s*```(?:json)?\s*\n([^]*?)\n?```\s*$/.exec(text)?.[1] ?? text

const malformed = (description: string) => new AiError.MalformedOutput({ ...source, description })

export const makeChatCompletionsModel = (model: string) =>
  Effect.gen(function*() {
    const openAi = yield* OpenAiClient.OpenAiClient
    const http = HttpClient.filterStatusOk(openAi.client.httpClient)

    const generateText = (options: LanguageModel.ProviderOptions) =>
      Effect.gen(function*() {
        const format = options.responseFormat
        const body = {
          model,
          messages: messagesOf(options.prompt),
          temperature: 0,
          ...(format.type === "json"
            ? {
              response_format: {
                type: "json_schema",
                json_schema: { name: format.objectName, schema: JSONSchema.make(format.schema), strict: false }
              }
            }
            : {})
        }
        const response = yield* http.execute(
          HttpClientRequest.post("/chat/completions").pipe(HttpClientRequest.bodyUnsafeJson(body))
        )
        const answer = yield* HttpClientResponse.schemaBodyJson(ChatCompletion)(response).pipe(
          Effect.mapError((error) => malformed(`the answer is not a chat completion: ${error.message}`))
        )
        const [choice] = answer.choices
        if (choice.finish_reason === "length") {
          return yield* malformed("the answer was cut off at the model's output limit")
        }
        const content = choice.message.content
        if (content === undefined || content === null || content.trim() === "") {
          return yield* malformed(`the answer has no content${choice.message.refusal ? `: ${choice.message.refusal}` : ""}`)
        }
        const parts: Array<Response.PartEncoded> = [
          { type: "text", text: format.type === "json" ? withoutFence(content) : content },
          {
            type: "finish",
            reason: finishReasonOf(choice.finish_reason),
            usage: {
              inputTokens: answer.usage?.prompt_tokens,
              outputTokens: answer.usage?.completion_tokens,
              totalTokens: answer.usage?.total_tokens
            }
          }
        ]
        return parts
      }).pipe(
        Effect.catchTags({
          RequestError: (error) => Effect.fail(AiError.HttpRequestError.fromRequestError({ ...source, error })),
          ResponseError: (error) => AiError.HttpResponseError.fromResponseError({ ...source, error })
        })
      )

    return yield* LanguageModel.make({
      generateText,
      // Extraction asks for one whole object; nothing here streams.
      streamText: () =>
        Stream.fail(new AiError.UnknownError({ ...source, method: "streamText", description: "streaming is not used" }))
    })
  })

/** The LanguageModel for `model`, given an OpenAiClient (base URL, key, HTTP client). */
export const chatCompletionsModel = (model: string) =>
  Layer.effect(LanguageModel.LanguageModel, makeChatCompletionsModel(model))
