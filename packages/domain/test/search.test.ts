import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { renderSnippet, SearchParams, snippetMarks } from "@tks/domain/search"

const decode = Schema.decodeUnknownEither(SearchParams)
const refused = (input: unknown) => Either.isLeft(decode(input))

describe("GET /v1/search parameters", () => {
  it("query is trimmed and required: blank or missing is refused, and so is one over 500 characters", () => {
    expect(decode({ query: "  fire drill  " })).toEqual(Either.right({ query: "fire drill" }))
    for (const query of ["", "   ", "\t\n"]) expect(refused({ query }), JSON.stringify(query)).toBe(true)
    expect(refused({})).toBe(true)
    expect(decode({ query: "x".repeat(500) })._tag).toBe("Right")
    expect(refused({ query: "x".repeat(501) })).toBe(true)
  })

  it("limit: digits for 1 to 50", () => {
    for (const [text, value] of [["1", 1], ["10", 10], ["50", 50]] as const) {
      expect(decode({ query: "a", limit: text })).toEqual(Either.right({ query: "a", limit: value }))
    }
    for (const text of ["0", "51", "100", "5x", "05", "-1", "1.5", "", " 5"]) expect(refused({ query: "a", limit: text }), text).toBe(true)
    const result = decode({ query: "a", limit: "51" })
    expect(Either.isLeft(result) && result.left.message).toContain("limit must be an integer from 1 to 50")
  })

  it("types: topic and chapter, comma-separated, repeated or both; duplicates count once", () => {
    const types = (input: ReadonlyArray<string>) => decode({ query: "a", types: input })
    expect(types(["topic"])).toEqual(Either.right({ query: "a", types: ["topic"] }))
    expect(types(["topic,chapter"])).toEqual(Either.right({ query: "a", types: ["topic", "chapter"] }))
    expect(types(["chapter", "topic", "chapter,topic"])).toEqual(Either.right({ query: "a", types: ["chapter", "topic"] }))
    for (const bad of [[""], ["topics"], ["topic,"], ["lesson"], ["topic, chapter"]]) expect(refused({ query: "a", types: bad }), bad.join("|")).toBe(true)
  })
})

describe("snippets are HTML-safe", () => {
  const mark = (word: string) => `${snippetMarks.start}${word}${snippetMarks.stop}`

  it("markers become <mark> and </mark>", () => {
    expect(renderSnippet(`the ${mark("canary")} step`)).toBe("the <mark>canary</mark> step")
  })

  it("markup, ampersands and quotes in the text are escaped; no other tag survives", () => {
    const rendered = renderSnippet(`<script>alert("x")</script> & 'y' ${mark("<b>")}`)
    expect(rendered).toBe("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; <mark>&lt;b&gt;</mark>")
    expect(rendered.replaceAll("<mark>", "").replaceAll("</mark>", "")).not.toMatch(/[<>]/)
  })
})
