import { Either } from "effect"
import { checkFetchUrl, FETCH_URL_MAX_LENGTH, fetchUrlMessages } from "@tks/domain/fetch-url"
import { toStorable } from "@tks/domain/text"

/**
 * The address rules of POST /v1/documents/from-url, checked before
 * anything is fetched: the field's own rules (`@tks/domain/fetch-url`).
 * Whether the address may be dialed at all (private networks, the metadata
 * service, redirects) is the page fetcher's SSRF guard's business.
 */
export const addressProblems = {
  notAnAddress: fetchUrlMessages.scheme,
  tooLong: fetchUrlMessages.length,
  credentials: fetchUrlMessages.credentials,
  videoSite: fetchUrlMessages.videoHost
} as const

/** The address to fetch, or the 400 message. The length counts the percent-encoded form (`URL.href`). */
export const parseFetchAddress = (input: string): Either.Either<URL, string> =>
  // Percent-encoding only grows an address past a bound this far out; don't parse megabytes.
  input.length > 4 * FETCH_URL_MAX_LENGTH
    ? Either.left(addressProblems.tooLong)
    : Either.map(checkFetchUrl(input), (href) => new URL(href))

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

/** Text from outside made storable: PostgreSQL refuses NUL, and a lone surrogate has no UTF-8 form. */
export const storable = toStorable
