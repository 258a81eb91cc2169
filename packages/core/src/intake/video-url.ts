import { Either } from "effect"
import type { HostedVideo } from "@tks/adapters/video/port"
import { videohostHosts } from "@tks/domain/video-hosts"

/**
 * Reads a watch, share or shorts link of the video-hosting site (SPEC 4.7):
 * exact host names only, no credentials or port, an id of exactly the
 * site's form. The left side is the 400 message.
 *
 * TODO(lead): `@tks/domain/hosted-video` (parseHostedVideo, same signature)
 * is the strict parser of record; once it is merged this file should
 * delegate to it (`export { parseHostedVideo } from "@tks/domain/hosted-video"`).
 */
const idPattern = /^[A-Za-z0-9_-]{11}$/
const maxLength = 2048

export const videoAddressProblems = {
  notAnAddress: "url must be an http or https address",
  tooLong: `url must be at most ${maxLength} characters`,
  credentials: "url must not contain a user name or password",
  port: "url must not name a port",
  host: `url must be a link of the video-hosting site (${videohostHosts.join(", ")})`,
  shape: "url must be a watch link (/watch?v=<id>), a share link (youtu.be/<id>) or a shorts link (/shorts/<id>)",
  id: "url must name a video id of exactly 11 letters, digits, '-' or '_'"
} as const

const candidateId = (url: URL): Either.Either<string, string> => {
  if (url.hostname === "youtu.be") {
    const id = url.pathname.slice(1)
    return id.length > 0 && !id.includes("/") ? Either.right(id) : Either.left(videoAddressProblems.shape)
  }
  if (url.pathname === "/watch") {
    const ids = url.searchParams.getAll("v")
    if (ids.length === 0) return Either.left(videoAddressProblems.shape)
    return ids.length === 1 ? Either.right(ids[0]!) : Either.left(videoAddressProblems.id)
  }
  const shorts = /^\/shorts\/([^/]+)$/.exec(url.pathname)?.[1]
  return shorts === undefined ? Either.left(videoAddressProblems.shape) : Either.right(shorts)
}

export const parseHostedVideo = (input: string): Either.Either<HostedVideo, string> => {
  if (input.length > maxLength) return Either.left(videoAddressProblems.tooLong)
  if (!URL.canParse(input)) return Either.left(videoAddressProblems.notAnAddress)
  const url = new URL(input)
  if (url.protocol !== "https:" && url.protocol !== "http:") return Either.left(videoAddressProblems.notAnAddress)
  if (url.username !== "" || url.password !== "") return Either.left(videoAddressProblems.credentials)
  if (!videohostHosts.includes(url.hostname)) return Either.left(videoAddressProblems.host)
  if (url.port !== "") return Either.left(videoAddressProblems.port)
  return Either.flatMap(candidateId(url), (videoId) =>
    idPattern.test(videoId)
      ? Either.right({ provider: "videohost" as const, videoId, watchUrl: `https://www.youtube.com/watch?v=${videoId}` })
      : Either.left(videoAddressProblems.id))
}
