import { type ConfigError, Effect, Layer, Option } from "effect"
import { configuredLlm, llmExtractorLayer } from "./llm.js"
import { LocalKnowledgeExtractor } from "./local.js"
import type { KnowledgeExtractor } from "./port.js"

/**
 * The extractor the environment asks for: the LLM adapter when LLM_API_KEY
 * is set (or LLM_BASE_URL names a keyless OpenAI-compatible server, such as a
 * local model runner), else the local one. Says which at start.
 */
export const KnowledgeExtractorLive: Layer.Layer<KnowledgeExtractor, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const llm = yield* configuredLlm
    if (Option.isNone(llm)) {
      yield* Effect.logInfo("knowledge extraction: local (set LLM_API_KEY to extract with an LLM)")
      return LocalKnowledgeExtractor
    }
    yield* Effect.logInfo("knowledge extraction: LLM").pipe(
      Effect.annotateLogs({ model: llm.value.model, baseUrl: llm.value.baseUrl })
    )
    return llmExtractorLayer(llm.value)
  })
)
