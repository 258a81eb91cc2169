import { json, type ScriptedReply } from "./scripted-server.js"

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
