import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, ParseResult, Schema } from "effect"
import { FetchUrl, fetchUrlMessages } from "@tks/domain/fetch-url"

const decode = Schema.decodeUnknownEither(FetchUrl)

const issuesOf = (input: unknown) => {
  const result = decode(input)
  return Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => issue.message) : []
}

describe("the url field of POST /v1/documents/from-url", () => {
  it("an http or https address decodes to its normalized (WHATWG-serialized) href", () => {
    expect(decode("https://example.com/a b?q=ü#top")).toEqual(Either.right("https://example.com/a%20b?q=%C3%BC#top"))
    expect(decode("HTTP://Example.COM")).toEqual(Either.right("http://example.com/"))
    expect(decode("https://bücher.example/")).toEqual(Either.right("https://xn--bcher-kva.example/"))
    expect(decode("  https://example.com/page  ")).toEqual(Either.right("https://example.com/page"))
  })

  it("any other scheme, or a string that is not an address, is refused as not http or https", () => {
    for (const input of ["ftp://example.com/", "file:///etc/passwd", "gopher://example.com/", "javascript:alert(1)",
      "data:text/html,hi", "mailto:a@example.com", "example.com/page", "", "http://", "https://exa mple.com/"]) {
      expect(issuesOf(input), input).toEqual([fetchUrlMessages.scheme])
    }
  })

  it("a user name or a password in the address is refused", () => {
    for (const input of ["https://user@example.com/", "https://user:secret@example.com/", "https://:secret@example.com/"]) {
      expect(issuesOf(input), input).toEqual([fetchUrlMessages.credentials])
    }
  })

  it("the length counts the percent-encoded form: 2048 passes, 2049 is refused", () => {
    const base = "https://example.com/"
    const exact = base + "a".repeat(2048 - base.length)
    expect(decode(exact)).toEqual(Either.right(exact))
    expect(issuesOf(exact + "a")).toEqual([fetchUrlMessages.length])
    // 400 raw characters, each sent as six (%C3%A9): short as typed, too long as sent.
    const encoded = base + "é".repeat(400)
    expect(encoded.length).toBeLessThan(2048)
    expect(issuesOf(encoded)).toEqual([fetchUrlMessages.length])
  })

  it("video-hosting sites (and their subdomains) are refused with a pointer to the video endpoint", () => {
    for (const input of ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcQ",
      "https://vimeo.com/1", "https://player.vimeo.com/video/1", "http://WWW.YouTube.com./x"]) {
      expect(issuesOf(input), input).toEqual([fetchUrlMessages.videoHost])
    }
    expect(Either.isRight(decode("https://notyoutube.com/watch"))).toBe(true)
  })

  it("a value that is not a string is refused by type", () => {
    expect(Either.isLeft(decode(42))).toBe(true)
    expect(Either.isLeft(decode(null))).toBe(true)
  })

  it("publishes as a string with the uri format in JSON Schema (OpenAPI)", () => {
    expect(JSONSchema.make(FetchUrl)).toMatchObject({ $defs: { FetchUrl: { type: "string", format: "uri" } } })
  })
})
