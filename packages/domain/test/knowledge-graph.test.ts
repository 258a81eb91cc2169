import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { categories } from "@tks/domain/knowledge"
import { evidenceLink, SpaceListParams } from "@tks/domain/knowledge-graph"

const content = "https://tks.test/v1/content/cnt_1"
const place = { contentUrl: content, sourceUrl: null, range: null, timeRange: null } as const

describe("evidence links (evidence carries a link)", () => {
  it("a document's evidence links to the content with its character range", () => {
    expect(evidenceLink({ ...place, contentType: "document", range: { start: 12, end: 40 } })).toBe(`${content}#chars=12-40`)
    expect(evidenceLink({ ...place, contentType: "guide", range: { start: 0, end: 5 } })).toBe(`${content}#chars=0-5`)
  })

  it("a video's evidence links to the watch link at the start second, replacing any t it had", () => {
    const timeRange = { startSeconds: 61.9, endSeconds: 70 }
    expect(evidenceLink({ ...place, contentType: "video", sourceUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", timeRange }))
      .toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=61s")
    expect(evidenceLink({ ...place, contentType: "video", sourceUrl: "https://m.youtube.com/watch?t=5s&v=dQw4w9WgXcQ", timeRange }))
      .toBe("https://m.youtube.com/watch?t=61s&v=dQw4w9WgXcQ")
  })

  it("anything else links to the content: share links, other sites, no source, no place", () => {
    const timeRange = { startSeconds: 3, endSeconds: 4 }
    for (const sourceUrl of ["https://youtu.be/dQw4w9WgXcQ", "https://evil.test/watch?v=x", "https://www.youtube.com/watch", "not a url", null]) {
      expect(evidenceLink({ ...place, contentType: "video", sourceUrl, timeRange }), String(sourceUrl)).toBe(content)
    }
    expect(evidenceLink({ ...place, contentType: "document" })).toBe(content)
  })
})

describe("GET /v1/spaces parameters", () => {
  const decode = Schema.decodeUnknownEither(SpaceListParams)

  it("categorySlug takes the 14 slugs", () => {
    for (const { slug } of categories) expect(decode({ categorySlug: slug })).toEqual(Either.right({ categorySlug: slug }))
  })

  it("an unknown categorySlug is refused with a message naming every allowed slug", () => {
    const result = decode({ categorySlug: "Engineering" })
    expect(Either.isLeft(result)).toBe(true)
    const message = Either.isLeft(result) ? result.left.message : ""
    for (const { slug } of categories) expect(message).toContain(slug)
  })
})
