import { Config, type ConfigError, Effect, Layer, Option, Redacted } from "effect"
import { llmExtractorLayer, LlmConfig } from "./llm.js"
import { LocalKnowledgeExtractor } from "./local.js"
import type { KnowledgeExtractor } from "./port.js"

/**
 * The extractor the environment asks for: the LLM adapter when LLM_API_KEY
 * is set (or LLM_BASE_URL names a keyless OpenAI-compatible server, such as a
 * local model runner), else the local one. Says which at start.
 */
export const KnowledgeExtractorLive: Layer.Layer<KnowledgeExtractor, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const settings = yield* LlmConfig
    const keySet = Option.exists(settings.apiKey, (key) => Redacted.value(key).trim() !== "")
    const baseUrlSet = Option.exists(yield* Config.option(Config.string("LLM_BASE_URL")), (url) => url.trim() !== "")
    if (!keySet && !baseUrlSet) {
      yield* Effect.logInfo("knowledge extraction: local (set LLM_API_KEY to extract with an LLM)")
      return LocalKnowledgeExtractor
    }
    yield* Effect.logInfo("knowledge extraction: LLM").pipe(
      Effect.annotateLogs({ model: settings.model, baseUrl: settings.baseUrl })
    )
    return llmExtractorLayer(keySet ? settings : { ...settings, apiKey: Option.none() })
  })
)
