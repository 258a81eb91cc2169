import { type ConfigError, Effect, Layer, Option } from "effect"
import { configuredLlm } from "../extraction/llm.js"
import { llmQuestionGeneratorLayer } from "./llm.js"
import { LocalQuestionGenerator } from "./local.js"
import type { QuestionGenerator } from "./port.js"

/**
 * The question generator the environment asks for: the LLM one when an LLM
 * is configured (the same LLM_* settings as knowledge extraction), else the
 * local one. Says which at start.
 */
export const QuestionGeneratorLive: Layer.Layer<QuestionGenerator, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const llm = yield* configuredLlm
    if (Option.isNone(llm)) {
      yield* Effect.logInfo("quiz questions: local (set LLM_API_KEY to write them with an LLM)")
      return LocalQuestionGenerator
    }
    yield* Effect.logInfo("quiz questions: LLM").pipe(Effect.annotateLogs({ model: llm.value.model, baseUrl: llm.value.baseUrl }))
    return llmQuestionGeneratorLayer(llm.value)
  })
)
