/**
 * The addresses of content records and their chapters as MCP resources.
 *
 * A scheme of our own (`tks:`), not the https address of the HTTP read: it
 * names the record, not a place to fetch it from, so it is the same over
 * stdio (which has no base address) and over HTTP whatever PUBLIC_URL is,
 * and a client reads it with `resources/read`, as the same person, under the
 * same rules. The place inside a resource is a fragment, which the client
 * applies to what the read returns:
 *
 * - `#char=<start>,<end>` (RFC 5147): a range of a chapter's text, counted
 *   as the API counts every character range: UTF-16 code units, end
 *   exclusive (the same count as characters, except that a character
 *   outside the Basic Multilingual Plane, such as an emoji, counts two);
 * - `#t=<start>,<end>` (W3C Media Fragments, normal play time in seconds): a
 *   stretch of a video, on the content record's address.
 */

export const RESOURCE_SCHEME = "tks"

const contentRoot = `${RESOURCE_SCHEME}://content/`

/** `tks://content/{contentId}`: a content record, read as its chapters. */
export const contentUri = (contentId: string): string => `${contentRoot}${encodeURIComponent(contentId)}`

/** `tks://content/{contentId}/chapters/{sequence}`: one chapter, read as its text. */
export const chapterUri = (contentId: string, sequence: number): string => `${contentUri(contentId)}/chapters/${sequence}`

/** An RFC 5147 character range of the resource's text (end exclusive). */
export const withCharRange = (uri: string, range: { readonly start: number; readonly end: number }): string =>
  `${uri}#char=${range.start},${range.end}`

/** Seconds as Media Fragments' normal play time takes them: digits and an optional decimal part, never an exponent. */
const nptSeconds = (seconds: number): string =>
  Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(3).replace(/0+$/, "").replace(/\.$/, "")

/** A W3C Media Fragments temporal range (`#t=<start>,<end>`, seconds). */
export const withTimeRange = (uri: string, range: { readonly startSeconds: number; readonly endSeconds: number }): string =>
  `${uri}#t=${nptSeconds(Math.max(0, range.startSeconds))},${nptSeconds(Math.max(0, range.endSeconds))}`

/** The RFC 6570 templates `resources/templates/list` publishes. */
export const resourceTemplates = [
  {
    uriTemplate: `${contentRoot}{contentId}`,
    name: "content",
    title: "Content text",
    description:
      "A document, video transcript or guide, read as its chapters in order (one text per chapter, each with its chapter's address). The same text and the same reach as get_content_text.",
    mimeType: "text/plain"
  },
  {
    uriTemplate: `${contentRoot}{contentId}/chapters/{sequence}`,
    name: "content-chapter",
    title: "Content chapter",
    description:
      "One chapter of a content record (sequence from 1), read as its text. A #char=<start>,<end> fragment (RFC 5147) names a quote's range in that text; the read always returns the whole chapter.",
    mimeType: "text/plain"
  }
] as const

/** What an address names: a content record, or one of its chapters; the fragment is left to the client. */
export interface ResourceAddress {
  readonly contentId: string
  readonly sequence: number | null
}

const addressPattern = /^tks:\/\/content\/([^/?#]+)(?:\/chapters\/([^/?#]*))?(?:#.*)?$/

/**
 * The record an address names, or why it is not one of ours: a different
 * scheme or shape, an id that does not decode, a chapter number that is not
 * a whole number from 1. Any fragment is accepted (it is the client's).
 */
export const parseResourceUri = (uri: string): ResourceAddress | { readonly problem: string } => {
  const usage = `Resource addresses are ${contentRoot}{contentId} or ${contentRoot}{contentId}/chapters/{sequence}`
  // The scheme and the host are case-insensitive (RFC 3986); the path is not.
  const match = addressPattern.exec(uri.slice(0, contentRoot.length).toLowerCase() + uri.slice(contentRoot.length))
  if (match === null) return { problem: `${JSON.stringify(uri)} is not a content address. ${usage}` }
  let contentId: string
  try {
    contentId = decodeURIComponent(match[1]!)
  } catch {
    return { problem: `${JSON.stringify(uri)} has a content id that is not valid percent-encoding. ${usage}` }
  }
  const sequence = match[2]
  if (sequence === undefined) return { contentId, sequence: null }
  if (!/^[1-9][0-9]{0,8}$/.test(sequence)) {
    return { problem: `The chapter in ${JSON.stringify(uri)} must be a whole number from 1. ${usage}` }
  }
  return { contentId, sequence: Number(sequence) }
}
