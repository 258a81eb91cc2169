import { Config, Effect } from "effect"

/**
 * MCP_RESULT_MAX_TOKENS: the most text one tool result may hold, in tokens
 * (default 25,000, what assistants' hosts accept in one tool result before
 * they cut it themselves, blindly), counted at four characters a token.
 */
export const ResultMaxTokens = Config.integer("MCP_RESULT_MAX_TOKENS").pipe(
  Config.withDefault(25_000),
  Config.validate({ message: "MCP_RESULT_MAX_TOKENS must be a whole number from 100", validation: (n) => n >= 100 })
)

export const CHARACTERS_PER_TOKEN = 4

/** A tool's encoded answer, its JSON text, and, when a page was cut to fit, the sentence that says so. */
export interface Bounded {
  readonly value: unknown
  readonly text: string
  readonly note: string | null
}

interface Page {
  readonly data: ReadonlyArray<unknown>
  readonly nextCursor: unknown
}

const isPage = (value: unknown): value is Page =>
  typeof value === "object" && value !== null && "nextCursor" in value && Array.isArray((value as { data?: unknown }).data)

/**
 * Runs a tool and keeps its answer within `maxCharacters` of JSON text: a
 * page that is too long is asked for again with half as many entries, until
 * it fits (or holds one entry), so its `nextCursor` is the service's own and
 * the next call carries on where this one stopped. Answers that are not
 * pages are returned whole.
 */
export const boundedAnswer = (
  payload: unknown,
  answer: (payload: unknown) => Effect.Effect<unknown, unknown>,
  maxCharacters: number
): Effect.Effect<Bounded, unknown> =>
  Effect.gen(function*() {
    let value = yield* answer(payload)
    let text = JSON.stringify(value)
    if (text.length <= maxCharacters || !isPage(value) || typeof payload !== "object" || payload === null) {
      return { value, text, note: null }
    }
    const asked = value.data.length
    while (text.length > maxCharacters && isPage(value) && value.data.length > 1) {
      value = yield* answer({ ...payload, limit: Math.floor(value.data.length / 2) })
      text = JSON.stringify(value)
    }
    const kept = isPage(value) ? value.data.length : asked
    const note = `This page was cut to ${kept} of the ${asked} entries asked for, to stay within about ${
      Math.round(maxCharacters / CHARACTERS_PER_TOKEN)
    } tokens; pass nextCursor as cursor (and a smaller limit) to read on.`
    return { value, text, note }
  })
