import { Either } from "effect"
import { isVideoHostingHost } from "@tks/domain/video-hosts"

/**
 * The address rules of POST /v1/documents/from-url (SPEC 4.7), checked before
 * anything is fetched. Whether the address may be dialed at all (private
 * networks, the metadata service, redirects) is the page fetcher's SSRF
 * guard's business; this only refuses what is wrong on its face.
 *
 * TODO(lead): when `@tks/domain/fetch-url` lands (the field's Schema), the
 * contract can decode `url` with it and this becomes a re-export of its
 * parser; the messages below are meant to match.
 */
export const maxAddressLength = 2048

export const addressProblems = {
  notAnAddress: "url must be an http or https address",
  tooLong: `url must be at most ${maxAddressLength} characters once percent-encoded`,
  credentials: "url must not contain a user name or password",
  videoSite: "url must not be a video-hosting site: add a hosted video with POST /v1/videos/videohost"
} as const

/** The address to fetch, or the 400 message. The length counts the percent-encoded form (`URL.href`). */
export const parseFetchAddress = (input: string): Either.Either<URL, string> => {
  // Percent-encoding only grows an address past a bound this far out; don't parse megabytes.
  if (input.length > 4 * maxAddressLength) return Either.left(addressProblems.tooLong)
  if (!URL.canParse(input)) return Either.left(addressProblems.notAnAddress)
  const url = new URL(input)
  if (url.protocol !== "http:" && url.protocol !== "https:") return Either.left(addressProblems.notAnAddress)
  if (url.href.length > maxAddressLength) return Either.left(addressProblems.tooLong)
  if (url.username !== "" || url.password !== "") return Either.left(addressProblems.credentials)
  if (isVideoHostingHost(url.hostname)) return Either.left(addressProblems.videoSite)
  return Either.right(url)
}

// Line breaks, other control characters and text-direction controls: a title is one plain line.
const notInTitle = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]+/g

/**
 * The provisional title of a fetched page: the site's name as one clean line
 * of at most 255 characters (the host name when the site gives none).
 * Processing reads a better one later (title_final stays false).
 */
export const provisionalTitle = (siteName: string, finalUrl: string): string => {
  const line = storable(siteName).replace(notInTitle, " ").replace(/\s+/g, " ").trim()
  const title = line.length > 0 ? line : URL.canParse(finalUrl) ? new URL(finalUrl).hostname : "Untitled page"
  return [...title].slice(0, 255).join("")
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Text from outside made storable: PostgreSQL refuses NUL, and a lone surrogate has no UTF-8 form (DESIGN pitfall 18). */
export const storable = (text: string): string => text.replace(/\u0000/g, "").replace(loneSurrogate, "\uFFFD")
