import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, ParseResult, Schema } from "effect"
import { NonBlankText, storableText, Text } from "@tks/domain/text"

const decode = <A>(schema: Schema.Schema<A, string>) => (input: string) => Schema.decodeUnknownEither(schema)(input)

const issuesOf = (result: Either.Either<unknown, ParseResult.ParseError>) =>
  Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => issue.message) : []

describe("body text that PostgreSQL can store (no NUL, no lone surrogate)", () => {
  it("a body string with a NUL character is refused at decode, naming the reason", () => {
    for (const input of ["\u0000", "a\u0000b", "trailing\u0000"]) {
      const result = decode(Text)(input)
      expect(Either.isLeft(result), JSON.stringify(input)).toBe(true)
      expect(issuesOf(result)).toEqual(["must not contain a NUL character (U+0000)"])
    }
  })

  it("a body string with an unpaired surrogate is refused; paired ones (emoji) pass", () => {
    expect(Either.isLeft(decode(Text)("a\uD800b"))).toBe(true)
    expect(Either.isLeft(decode(Text)("\uDC00"))).toBe(true)
    expect(decode(Text)("a😀b")).toEqual(Either.right("a😀b"))
  })

  it("tabs, newlines and other text pass unchanged (free text and markdown keep them)", () => {
    const markdown = "# Title\n\n\tindented\r\nlast line — ü ß 漢字"
    expect(decode(Text)(markdown)).toEqual(Either.right(markdown))
  })

  it("the refinement composes with other string schemas and keeps their checks", () => {
    const Short = storableText(Schema.String.pipe(Schema.maxLength(3)))
    expect(Either.isLeft(decode(Short)("abcd"))).toBe(true)
    expect(Either.isLeft(decode(Short)("a\u0000"))).toBe(true)
    expect(decode(Short)("abc")).toEqual(Either.right("abc"))
  })

  it("NonBlankText trims, refuses blank and NUL", () => {
    expect(decode(NonBlankText)("  name ")).toEqual(Either.right("name"))
    expect(Either.isLeft(decode(NonBlankText)("   "))).toBe(true)
    expect(Either.isLeft(decode(NonBlankText)(" a\u0000 "))).toBe(true)
  })

  it("the schemas still publish as plain strings in JSON Schema (OpenAPI)", () => {
    expect(JSONSchema.make(Text)).toMatchObject({ $defs: { Text: { type: "string" } } })
  })
})
