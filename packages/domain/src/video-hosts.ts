/**
 * The video-hosting site of POST /v1/videos/videohost, by its exact host
 * names, and the other video-hosting sites: POST /v1/documents/from-url
 * refuses all of them (a video is added as a video, not a page).
 */
export const videohostHosts: ReadonlyArray<string> = ["youtube.com", "www.youtube.com", "m.youtube.com", "youtu.be"]

const otherVideoHosts: ReadonlyArray<string> = [
  "youtube-nocookie.com",
  "music.youtube.com",
  "vimeo.com",
  "player.vimeo.com",
  "dailymotion.com",
  "dai.ly",
  "twitch.tv",
  "tiktok.com",
  "wistia.com",
  "loom.com"
]

/** A host name on a video-hosting site: the site itself or any subdomain of it. */
export const isVideoHostingHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  return [...videohostHosts, ...otherVideoHosts].some((site) => host === site || host.endsWith(`.${site}`))
}
