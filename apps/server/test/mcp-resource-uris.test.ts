import { describe, expect, it } from "@effect/vitest"
import {
  chapterUri,
  contentUri,
  parseResourceUri,
  withCharRange,
  withTimeRange
} from "@tks/mcp/protocol/resource-uris"

describe("content resource addresses", () => {
  it("a content record and a chapter have addresses in a scheme of their own, the same whatever address the service runs at", () => {
    expect(contentUri("cnt_abc")).toBe("tks://content/cnt_abc")
    expect(chapterUri("cnt_abc", 3)).toBe("tks://content/cnt_abc/chapters/3")
  })

  it("a character range is an RFC 5147 fragment, end exclusive", () => {
    expect(withCharRange(chapterUri("cnt_abc", 2), { start: 10, end: 200 })).toBe("tks://content/cnt_abc/chapters/2#char=10,200")
  })

  it("a video's stretch is a W3C Media Fragments temporal range in seconds, decimals kept, never an exponent or a negative", () => {
    expect(withTimeRange(contentUri("cnt_v"), { startSeconds: 12.5, endSeconds: 40 })).toBe("tks://content/cnt_v#t=12.5,40")
    expect(withTimeRange(contentUri("cnt_v"), { startSeconds: 0.0000001, endSeconds: 1.23456 })).toBe("tks://content/cnt_v#t=0,1.235")
    expect(withTimeRange(contentUri("cnt_v"), { startSeconds: -3, endSeconds: 5 })).toBe("tks://content/cnt_v#t=0,5")
  })

  it("an id with reserved characters is percent-encoded and reads back as itself", () => {
    const uri = chapterUri("a/b#c d", 1)
    expect(uri).toBe("tks://content/a%2Fb%23c%20d/chapters/1")
    expect(parseResourceUri(uri)).toEqual({ contentId: "a/b#c d", sequence: 1 })
  })

  it("a fragment is accepted and left to the client: the address names the whole chapter or record", () => {
    expect(parseResourceUri("tks://content/cnt_abc/chapters/2#char=10,200")).toEqual({ contentId: "cnt_abc", sequence: 2 })
    expect(parseResourceUri("tks://content/cnt_v#t=12.5,40")).toEqual({ contentId: "cnt_v", sequence: null })
  })

  it("the scheme and host are case-insensitive, the id is not", () => {
    expect(parseResourceUri("TKS://Content/cnt_AbC")).toEqual({ contentId: "cnt_AbC", sequence: null })
  })

  it("anything else is not an address, with the reason and the two shapes", () => {
    for (const uri of ["tks://content", "tks://content/a/chapters", "tks://content/a/chapters/01", "tks://content/a?x=1", "tks://contents/a"]) {
      const parsed = parseResourceUri(uri)
      expect(parsed, uri).toHaveProperty("problem")
      expect((parsed as { problem: string }).problem, uri).toContain("tks://content/{contentId}")
    }
  })
})
