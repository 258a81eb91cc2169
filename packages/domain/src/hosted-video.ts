import { Either } from "effect"
import { videohostHosts } from "./video-hosts.js"

/**
 * A hosted video of the video-hosting site (POST /v1/videos/videohost), read
 * from a watch, share or shorts link. Pure and strict: exact host names only
 * (a lookalike such as youtube.com.evil.test never passes), no credentials, no
 * other port, no other path shape, and an id of exactly the site's form.
 */
export interface HostedVideo {
  readonly provider: "videohost"
  /** The site's own video id (11 characters of A-Z a-z 0-9 - _). */
  readonly videoId: string
  /** The canonical watch link, whatever link form the caller gave. */
  readonly watchUrl: string
}

const videoIdPattern = /^[A-Za-z0-9_-]{11}$/
const shortsPath = /^\/shorts\/([^/]+)$/
const shareHost = "youtu.be"
/** The same bound POST /v1/documents/from-url puts on its address. */
const maxLength = 2048

/** The 400 messages; each names what was wrong so the caller can fix the link. */
export const hostedVideoReasons = {
  notAnAddress: "url must be an http or https address",
  tooLong: `url must be at most ${maxLength} characters`,
  credentials: "url must not contain a user name or password",
  port: "url must not name a port",
  host: `url must be a link of the video-hosting site (${videohostHosts.join(", ")})`,
  shape: "url must be a watch link (/watch?v=<id>), a share link (youtu.be/<id>) or a shorts link (/shorts/<id>)",
  id: "url must name a video id of exactly 11 letters, digits, '-' or '_'"
} as const

export const canonicalWatchUrl = (videoId: string): string => `https://www.youtube.com/watch?v=${videoId}`

const hostedVideo = (videoId: string | undefined): Either.Either<HostedVideo, string> =>
  videoId !== undefined && videoIdPattern.test(videoId)
    ? Either.right({ provider: "videohost", videoId, watchUrl: canonicalWatchUrl(videoId) })
    : Either.left(hostedVideoReasons.id)

/** The id the link names, before its form is checked; `undefined` when the path has none of the three shapes. */
const candidateId = (url: URL): Either.Either<string, string> => {
  if (url.hostname === shareHost) {
    const id = url.pathname.slice(1)
    return url.pathname.length > 1 && !id.includes("/") ? Either.right(id) : Either.left(hostedVideoReasons.shape)
  }
  if (url.pathname === "/watch") {
    const ids = url.searchParams.getAll("v")
    if (ids.length === 0) return Either.left(hostedVideoReasons.shape)
    // Two v= values name two videos: refuse rather than guess which one was meant.
    return ids.length === 1 && ids[0] !== undefined ? Either.right(ids[0]) : Either.left(hostedVideoReasons.id)
  }
  const shorts = shortsPath.exec(url.pathname)?.[1]
  return shorts === undefined ? Either.left(hostedVideoReasons.shape) : Either.right(shorts)
}

/** Reads a watch, share or shorts link; the left side is the 400 message. */
export const parseHostedVideo = (input: string): Either.Either<HostedVideo, string> => {
  if (input.length > maxLength) return Either.left(hostedVideoReasons.tooLong)
  if (!URL.canParse(input)) return Either.left(hostedVideoReasons.notAnAddress)
  const url = new URL(input)
  if (url.protocol !== "https:" && url.protocol !== "http:") return Either.left(hostedVideoReasons.notAnAddress)
  if (url.username !== "" || url.password !== "") return Either.left(hostedVideoReasons.credentials)
  // WHATWG URL lower-cases the host and drops a default port; a trailing dot stays and is refused as not exact.
  if (!videohostHosts.includes(url.hostname)) return Either.left(hostedVideoReasons.host)
  if (url.port !== "") return Either.left(hostedVideoReasons.port)
  return Either.flatMap(candidateId(url), hostedVideo)
}
