import { Either } from "effect"
import { checkedString } from "./checked-string.js"
import { isVideoHostingHost } from "./video-hosts.js"

/**
 * The `url` field of POST /v1/documents/from-url: an http or
 * https address, at most 2048 characters once percent-encoded, with no user
 * name or password, and not on a video-hosting site (a video is added with
 * POST /v1/videos/videohost). These are the rules of the field itself; whether
 * the address may be fetched (public network, redirects, reachability) is the
 * page fetcher's judgement at fetch time.
 */
export const FETCH_URL_MAX_LENGTH = 2048

export const fetchUrlMessages = {
  scheme: "url must be an http or https address",
  credentials: "url must not contain a user name or password",
  length: `url must be at most ${FETCH_URL_MAX_LENGTH} characters once percent-encoded`,
  videoHost: "Video-hosting sites are added with POST /v1/videos/videohost"
} as const

const parse = (input: string): URL | null => {
  try {
    return new URL(input)
  } catch {
    return null
  }
}

/**
 * The address as the WHATWG URL parser serializes it (percent-encoded, host
 * lower-cased and IDNA-encoded, IP literals normalized), or the refusal.
 * The length is measured on that serialization: it is what is sent and stored.
 * The fetcher applies the same rules to every redirect target.
 */
export const checkFetchUrl = (input: string): Either.Either<string, string> => {
  const url = parse(input)
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    return Either.left(fetchUrlMessages.scheme)
  }
  if (url.username !== "" || url.password !== "") return Either.left(fetchUrlMessages.credentials)
  if (url.href.length > FETCH_URL_MAX_LENGTH) return Either.left(fetchUrlMessages.length)
  if (isVideoHostingHost(url.hostname)) return Either.left(fetchUrlMessages.videoHost)
  return Either.right(url.href)
}

/** The body field: a string in, the normalized href out; each rule refuses with its own message. */
export const FetchUrl = checkedString(checkFetchUrl).annotations({
  identifier: "FetchUrl",
  description:
    "An http or https address of a public page or file, at most 2048 characters once percent-encoded, without user name or password; video-hosting sites are refused.",
  jsonSchema: { type: "string", format: "uri" }
})
export type FetchUrl = typeof FetchUrl.Type
