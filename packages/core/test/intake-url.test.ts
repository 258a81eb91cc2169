import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { addressProblems, parseFetchAddress, provisionalTitle, storable } from "../src/intake/url.js"
import { hostedVideoReasons as videoAddressProblems, parseHostedVideo } from "@tks/domain/hosted-video"

const refusal = <A>(result: Either.Either<A, string>) => (Either.isLeft(result) ? result.left : "accepted")

describe("the address of POST /v1/documents/from-url", () => {
  it("http and https addresses pass, as the URL parser writes them", () => {
    expect(Either.getOrThrow(parseFetchAddress("https://Example.test/a b?q=ü")).href).toBe("https://example.test/a%20b?q=%C3%BC")
    expect(Either.isRight(parseFetchAddress("http://example.test"))).toBe(true)
  })

  it("other schemes and non-addresses are refused", () => {
    for (const input of ["ftp://example.test/", "file:///etc/passwd", "javascript:alert(1)", "example.test/page", "", "data:text/html,hi"]) {
      expect(refusal(parseFetchAddress(input)), input).toBe(addressProblems.notAnAddress)
    }
  })

  it("a user name or password is refused", () => {
    for (const input of ["https://user@example.test/", "https://user:secret@example.test/", "https://:secret@example.test/"]) {
      expect(refusal(parseFetchAddress(input)), input).toBe(addressProblems.credentials)
    }
  })

  it("at most 2048 characters once percent-encoded", () => {
    const base = "https://example.test/"
    expect(Either.isRight(parseFetchAddress(base + "a".repeat(2048 - base.length)))).toBe(true)
    expect(refusal(parseFetchAddress(base + "a".repeat(2049 - base.length)))).toBe(addressProblems.tooLong)
    // 700 é are 700 characters as sent, 4200 once percent-encoded.
    expect(refusal(parseFetchAddress(base + "é".repeat(700)))).toBe(addressProblems.tooLong)
  })

  it("video-hosting sites are refused, subdomains included", () => {
    for (const input of ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcQ", "https://vimeo.com/1", "https://player.vimeo.com/video/1", "https://YOUTUBE.com./x"]) {
      expect(refusal(parseFetchAddress(input)), input).toBe(addressProblems.videoSite)
    }
  })
})

describe("a fetched page's provisional title", () => {
  it("is the site's name on one clean line, the host name when there is none, at most 255 characters", () => {
    expect(provisionalTitle("Acme\r\nHandbook\u202E", "https://a.test/")).toBe("Acme Handbook")
    expect(provisionalTitle("  \n ", "https://docs.acme.test/x")).toBe("docs.acme.test")
    expect([...provisionalTitle("😀".repeat(300), "https://a.test/")]).toHaveLength(255)
  })

  it("text from outside loses NUL and unpaired surrogates", () => {
    expect(storable("a\u0000b\uD800c😀")).toBe("ab\uFFFDc😀")
  })
})

describe("a hosted video's link", () => {
  it("watch, share and shorts links name the video; the watch link is canonical", () => {
    for (const input of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com/watch?v=dQw4w9WgXcQ&t=42",
      "http://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ"
    ]) {
      expect(parseHostedVideo(input), input).toEqual(
        Either.right({ provider: "videohost", videoId: "dQw4w9WgXcQ", watchUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" })
      )
    }
  })

  it("lookalike hosts, other paths, bad ids, credentials and ports are refused", () => {
    const cases: Array<[string, string]> = [
      ["https://youtube.com.evil.test/watch?v=dQw4w9WgXcQ", videoAddressProblems.host],
      ["https://music.youtube.com/watch?v=dQw4w9WgXcQ", videoAddressProblems.host],
      ["https://www.youtube.com/playlist?list=PL1", videoAddressProblems.shape],
      ["https://www.youtube.com/watch?v=short", videoAddressProblems.id],
      ["https://www.youtube.com/watch?v=dQw4w9WgXcQ&v=aaaaaaaaaaa", videoAddressProblems.id],
      ["https://u:p@www.youtube.com/watch?v=dQw4w9WgXcQ", videoAddressProblems.credentials],
      ["https://www.youtube.com:8443/watch?v=dQw4w9WgXcQ", videoAddressProblems.port],
      ["ftp://youtu.be/dQw4w9WgXcQ", videoAddressProblems.notAnAddress]
    ]
    for (const [input, problem] of cases) expect(refusal(parseHostedVideo(input)), input).toBe(problem)
  })
})
