import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Layer } from "effect"
import type { LlmSettings } from "@tks/adapters/extraction/llm"
import { QuestionGeneratorLive } from "@tks/adapters/questions/live"
import { llmQuestionGeneratorLayer } from "@tks/adapters/questions/llm"
import { QuestionGenerator, type QuestionInput } from "@tks/adapters/questions/port"
import { againstScriptedModel, completion, failureReason } from "./support/chat-completions.js"
import { deploymentAndSafety } from "./support/quiz-material.js"
import { json, type RecordedRequest, type ScriptedReply } from "./support/scripted-server.js"

const validAnswer = {
  questions: [
    {
      kind: "multiple_choice",
      question: "How much traffic does the canary step send to the new version?",
      choices: ["1%", "5%", "50%"],
      correctAnswer: "5%",
      explanation: "The canary step sends 5% of traffic to the new version.",
      topicId: "top_deploy"
    },
    {
      kind: "cloze",
      question: "A hotfix must be reviewed by a _____ before it ships.",
      correctAnswer: "second engineer",
      topicId: "top_made_up"
    }
  ]
}

/** Runs the LLM generator against a fake chat-completions server on loopback, scripted by `script`. */
const generateAgainst = (
  script: (request: RecordedRequest) => ScriptedReply,
  input: QuestionInput = deploymentAndSafety,
  overrides: Partial<LlmSettings> = {}
) =>
  againstScriptedModel(
    script,
    llmQuestionGeneratorLayer,
    Effect.flatMap(QuestionGenerator, (generator) => generator.generate(input)),
    overrides
  )

const failureOf = failureReason

// scopedLive: the loopback server and timeouts run on the real clock.
describe("LLM quiz questions over an OpenAI-compatible chat-completions API", () => {
  it.scopedLive("a valid answer becomes numbered stored questions; a cloze has no choices; a topic the model made up is null", () =>
    Effect.gen(function*() {
      const { exit } = yield* generateAgainst(() => completion(JSON.stringify(validAnswer)))
      expect(yield* exit).toEqual([
        { number: 1, ...validAnswer.questions[0] },
        {
          number: 2,
          kind: "cloze",
          question: "A hotfix must be reviewed by a _____ before it ships.",
          choices: [],
          correctAnswer: "second engineer",
          explanation: "",
          topicId: null
        }
      ])
    }))

  it.scopedLive("the request carries the key, the model, the material, the items with their topic ids, the count and the JSON Schema", () =>
    Effect.gen(function*() {
      const { requests } = yield* generateAgainst(() => completion(JSON.stringify(validAnswer)), {
        ...deploymentAndSafety,
        count: 7,
        difficulty: "ADVANCED"
      })
      expect(requests).toHaveLength(1)
      const request = requests[0]!
      expect([request.method, request.url, request.headers.authorization]).toEqual(["POST", "/v1/chat/completions", "Bearer test-key"])
      const body = JSON.parse(request.body)
      expect(body.model).toBe("test-model")
      expect(body.messages[0].content).toContain("Write exactly 7 questions")
      expect(body.messages[0].content).toContain("Difficulty ADVANCED")
      expect(body.messages[1].content).toContain("A hotfix must be reviewed by a second engineer before it ships.")
      expect(body.messages[1].content).toContain("- [top_safety] fact: First aid")
      expect(body.response_format.json_schema.name).toBe("quiz")
      expect(JSON.stringify(body.response_format.json_schema.schema)).toContain("multiple_choice")
    }))

  it.scopedLive("more questions than asked are cut to the count", () =>
    Effect.gen(function*() {
      const { exit } = yield* generateAgainst(() => completion(JSON.stringify(validAnswer)), { ...deploymentAndSafety, count: 1 })
      expect((yield* exit).map((question) => question.number)).toEqual([1])
    }))

  it.scopedLive("a malformed or invalid answer fails with the reason: not JSON, no questions, a correct answer not among the choices, a cloze with choices, an unknown kind", () =>
    Effect.gen(function*() {
      const [first] = validAnswer.questions
      const invalid: Array<unknown> = [
        { questions: [] },
        { questions: [{ ...first, correctAnswer: "7%" }] },
        { questions: [{ ...first, choices: ["5%", " 5% "] }] },
        { questions: [{ kind: "cloze", question: "_____ ships.", choices: ["a", "b"], correctAnswer: "a" }] },
        { questions: [{ ...first, kind: "essay" }] }
      ]
      for (const answer of invalid) {
        const { exit } = yield* generateAgainst(() => completion(JSON.stringify(answer)))
        expect(failureOf(exit), JSON.stringify(answer)).toMatch(/^the model's answer is not a valid quiz/)
      }
      const cases: Array<[ScriptedReply, RegExp]> = [
        [completion("{\"questions\": [", "stop"), /^the model's answer is not a valid quiz/],
        [completion(null), /no content/],
        [json(200, { choices: [] }), /not a chat completion/]
      ]
      for (const [reply, reason] of cases) {
        const { exit } = yield* generateAgainst(() => reply)
        expect(failureOf(exit)).toMatch(reason)
      }
    }))

  it.scopedLive("an HTTP error fails with the status; a model that does not answer in time fails", () =>
    Effect.gen(function*() {
      const { exit, requests } = yield* generateAgainst(() => json(500, { error: { message: "boom" } }))
      expect(failureOf(exit)).toBe("the model endpoint answered HTTP 500")
      expect(requests).toHaveLength(1)
      const slow = yield* generateAgainst(
        () => ({ ...completion(JSON.stringify(validAnswer)), delayMs: 5_000 }),
        deploymentAndSafety,
        { timeout: Duration.millis(200) }
      )
      expect(failureOf(slow.exit)).toMatch(/did not answer within/)
    }))
})

describe("QuestionGeneratorLive chooses the adapter from the environment", () => {
  const nameWith = (entries: Array<[string, string]>) =>
    QuestionGenerator.pipe(
      Effect.map((generator) => generator.name),
      Effect.provide(QuestionGeneratorLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries))))))
    )

  it.effect("the local generator without LLM settings; the LLM one with LLM_API_KEY or LLM_BASE_URL", () =>
    Effect.gen(function*() {
      expect(yield* nameWith([])).toBe("local")
      expect(yield* nameWith([["LLM_API_KEY", " "]])).toBe("local")
      expect(yield* nameWith([["LLM_API_KEY", "k"], ["LLM_MODEL", "llama3.1"]])).toBe("llm:llama3.1")
      expect(yield* nameWith([["LLM_BASE_URL", "http://127.0.0.1:11434/v1"]])).toBe("llm:gpt-4o-mini")
    }))
})
