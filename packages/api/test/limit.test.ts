import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { BooleanFromQuery, Limit } from "@tks/domain/pagination"

const UrlParams = Schema.Struct({ limit: Schema.optional(Limit), noManager: Schema.optional(BooleanFromQuery) })
const decode = Schema.decodeUnknownEither(UrlParams)

describe("limit in the query string", () => {
  it("decimal integers from 1 to 100 are accepted", () => {
    for (const [text, value] of [["1", 1], ["7", 7], ["50", 50], ["100", 100]] as const) {
      expect(decode({ limit: text }), text).toEqual(Either.right({ limit: value }))
    }
  })

  it("absent stays absent (the service applies the default: a schema default would make the parameter required on HttpApiClient)", () => {
    expect(decode({})).toEqual(Either.right({}))
  })

  it("exponents, hex, signs, spaces, fractions, leading zeros and out-of-range values are refused", () => {
    for (const text of ["1e1", "0x10", " 5", "5 ", "+5", "-1", "1.0", "1.5", "05", "007", "0", "101", "1000", "", "abc", "Infinity", "NaN"]) {
      const result = decode({ limit: text })
      expect(Either.isLeft(result), JSON.stringify(text)).toBe(true)
    }
  })

  it("the refusal says what is allowed", () => {
    const result = decode({ limit: "1e1" })
    expect(Either.isLeft(result) && result.left.message).toContain("limit must be an integer from 1 to 100")
  })

  it("clients encode a number as its decimal text, and cannot send a fraction", () => {
    expect(Schema.encodeSync(Limit)(3)).toBe("3")
    expect(Either.isLeft(Schema.encodeEither(Limit)(1.5))).toBe(true)
  })
})

describe("boolean query parameters", () => {
  it("only true and false are accepted", () => {
    expect(decode({ noManager: "true" })).toEqual(Either.right({ noManager: true }))
    expect(decode({ noManager: "false" })).toEqual(Either.right({ noManager: false }))
    for (const text of ["yes", "1", "TRUE", ""]) expect(Either.isLeft(decode({ noManager: text })), text).toBe(true)
  })
})
