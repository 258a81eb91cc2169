import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { ContentListParams, durationOf, titleQueryWords } from "@tks/domain/content"

const decodeParams = Schema.decodeUnknownEither(ContentListParams)
const messagesOf = (result: Either.Either<unknown, ParseResult.ParseError>) =>
  Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => `${issue.path.join(".")}: ${issue.message}`) : []

describe("the content title query (every word, any order, case-insensitive)", () => {
  it("splits on any whitespace and drops blanks", () => {
    expect(titleQueryWords("  Forklift\tsafety\n basics ")).toEqual(["forklift", "safety", "basics"])
  })

  it("lower-cases each word and keeps a repeated word once", () => {
    expect(titleQueryWords("Safety SAFETY safety Guide")).toEqual(["safety", "guide"])
  })

  it("no query, an empty one or only spaces has no words (nothing is filtered)", () => {
    expect(titleQueryWords(undefined)).toEqual([])
    expect(titleQueryWords("")).toEqual([])
    expect(titleQueryWords(" \t ")).toEqual([])
  })

  it("LIKE wildcards and punctuation stay part of their word (the repository escapes them)", () => {
    expect(titleQueryWords("100% sure_thing back\\slash")).toEqual(["100%", "sure_thing", "back\\slash"])
  })
})

describe("content fields", () => {
  it("durationSeconds is a video's only", () => {
    expect(durationOf("video", 212)).toBe(212)
    expect(durationOf("video", null)).toBeNull()
    expect(durationOf("document", 99)).toBeNull()
    expect(durationOf("guide", 10)).toBeNull()
  })
})

describe("GET /v1/content parameters", () => {
  it("type is document, video or guide", () => {
    for (const type of ["document", "video", "guide"]) expect(decodeParams({ type })).toEqual(Either.right({ type }))
  })

  it("any other type is refused, naming the allowed values", () => {
    for (const type of ["Video", "audio", ""]) {
      // One issue per allowed literal, all on `type` (the server merges them into one message).
      const messages = messagesOf(decodeParams({ type }))
      expect(messages.length, type).toBeGreaterThan(0)
      for (const message of messages) expect(message, type).toMatch(/^type: /)
      for (const allowed of ["document", "video", "guide"]) expect(messages.join(" "), type).toContain(`"${allowed}"`)
    }
  })

  it("query, cursor and limit arrive as text; limit becomes a number from 1 to 100", () => {
    expect(decodeParams({ query: "a b", cursor: "c", limit: "20" })).toEqual(Either.right({ query: "a b", cursor: "c", limit: 20 }))
    for (const limit of ["0", "101", "1.5", "x"]) expect(Either.isLeft(decodeParams({ limit })), limit).toBe(true)
  })
})
