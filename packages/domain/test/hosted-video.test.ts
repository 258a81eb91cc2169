import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { canonicalWatchUrl, hostedVideoReasons, parseHostedVideo } from "@tks/domain/hosted-video"
import { videohostHosts } from "@tks/domain/video-hosts"

const id = "dQw4w9WgXcQ"
const canonical = `https://www.youtube.com/watch?v=${id}`

const videoIdOf = (input: string) => Either.map(parseHostedVideo(input), (video) => video.videoId)
const reasonOf = (input: string) =>
  Either.match(parseHostedVideo(input), { onLeft: (reason) => reason, onRight: () => "accepted" })

describe("hosted video links: the three link shapes on the exact hosts", () => {
  it("a watch link on every watch host gives the video with the canonical watch link", () => {
    for (const host of ["youtube.com", "www.youtube.com", "m.youtube.com"]) {
      expect(parseHostedVideo(`https://${host}/watch?v=${id}`)).toEqual(
        Either.right({ provider: "videohost", videoId: id, watchUrl: canonical })
      )
    }
  })

  it("a share link (youtu.be/<id>) and a shorts link give the same canonical watch link", () => {
    expect(parseHostedVideo(`https://youtu.be/${id}`)).toEqual(
      Either.right({ provider: "videohost", videoId: id, watchUrl: canonical })
    )
    for (const host of ["youtube.com", "www.youtube.com", "m.youtube.com"]) {
      expect(Either.map(parseHostedVideo(`https://${host}/shorts/${id}`), (video) => video.watchUrl)).toEqual(
        Either.right(canonical)
      )
    }
  })

  it("extra query parameters (t=, si=, list=) and a fragment are allowed; v stays required", () => {
    expect(videoIdOf(`https://www.youtube.com/watch?t=42&v=${id}&list=PL123`)).toEqual(Either.right(id))
    expect(videoIdOf(`https://youtu.be/${id}?si=abc&t=10`)).toEqual(Either.right(id))
    expect(videoIdOf(`https://www.youtube.com/shorts/${id}?feature=share`)).toEqual(Either.right(id))
    expect(videoIdOf(`https://www.youtube.com/watch?v=${id}#t=1m`)).toEqual(Either.right(id))
    expect(reasonOf("https://www.youtube.com/watch?t=42")).toBe(hostedVideoReasons.shape)
    expect(reasonOf("https://www.youtube.com/watch")).toBe(hostedVideoReasons.shape)
  })

  it("http is accepted as well as https, and the canonical link is always https on www", () => {
    expect(Either.map(parseHostedVideo(`http://m.youtube.com/watch?v=${id}`), (video) => video.watchUrl)).toEqual(
      Either.right(canonical)
    )
  })

  it("upper-case host names are the same host (URLs lower-case them); the id keeps its case", () => {
    expect(videoIdOf(`HTTPS://WWW.YOUTUBE.COM/watch?v=${id}`)).toEqual(Either.right(id))
    expect(videoIdOf(`https://YOUTU.BE/${id}`)).toEqual(Either.right(id))
  })

  it("ids with '-' and '_' are accepted", () => {
    expect(videoIdOf("https://youtu.be/a-b_c-d_e-f")).toEqual(Either.right("a-b_c-d_e-f"))
  })

  it("the canonical watch link is built from the id alone", () => {
    expect(canonicalWatchUrl("abcdefghijk")).toBe("https://www.youtube.com/watch?v=abcdefghijk")
  })
})

describe("hosted video links: everything else is refused with a reason", () => {
  it("an id that is not exactly 11 characters of the site's alphabet is refused", () => {
    for (const bad of ["dQw4w9WgXc", "dQw4w9WgXcQQ", "dQw4w9WgX.Q", "dQw4w9WgX Q", "dQw4w9WgXc%", "", "ÄQw4w9WgXcQ"]) {
      expect(reasonOf(`https://www.youtube.com/watch?v=${encodeURIComponent(bad)}`), bad).toBe(hostedVideoReasons.id)
    }
    expect(reasonOf("https://youtu.be/dQw4w9WgXcQQ")).toBe(hostedVideoReasons.id)
    expect(reasonOf("https://www.youtube.com/shorts/short")).toBe(hostedVideoReasons.id)
  })

  it("two v= parameters are refused rather than guessed", () => {
    expect(reasonOf(`https://www.youtube.com/watch?v=${id}&v=abcdefghijk`)).toBe(hostedVideoReasons.id)
  })

  it("lookalike and other hosts are refused: exact host names only", () => {
    for (const host of [
      "youtube.com.evil.test",
      "evil-youtube.com",
      "youtu.be.x",
      "evilyoutu.be",
      "music.youtube.com",
      "www.youtube-nocookie.com",
      "youtube.co",
      "www.youtube.com.",
      "xn--yutube-wqf.com",
      "vimeo.com",
      "127.0.0.1"
    ]) {
      expect(reasonOf(`https://${host}/watch?v=${id}`), host).toBe(hostedVideoReasons.host)
    }
  })

  it("a host name hidden in the user info, path or fragment does not count", () => {
    expect(reasonOf(`https://evil.test/www.youtube.com/watch?v=${id}`)).toBe(hostedVideoReasons.host)
    expect(reasonOf(`https://evil.test#@www.youtube.com/watch?v=${id}`)).toBe(hostedVideoReasons.host)
    expect(reasonOf(`https://www.youtube.com@evil.test/watch?v=${id}`)).toBe(hostedVideoReasons.credentials)
  })

  it("credentials are refused even on the right host", () => {
    expect(reasonOf(`https://user:pass@www.youtube.com/watch?v=${id}`)).toBe(hostedVideoReasons.credentials)
    expect(reasonOf(`https://user@youtu.be/${id}`)).toBe(hostedVideoReasons.credentials)
  })

  it("an explicit non-default port is refused; the default port is the same address", () => {
    expect(reasonOf(`https://www.youtube.com:8443/watch?v=${id}`)).toBe(hostedVideoReasons.port)
    expect(videoIdOf(`https://www.youtube.com:443/watch?v=${id}`)).toEqual(Either.right(id))
  })

  it("other schemes and non-addresses are refused", () => {
    for (const input of [
      `ftp://www.youtube.com/watch?v=${id}`,
      `javascript:alert(1)//www.youtube.com/watch?v=${id}`,
      `www.youtube.com/watch?v=${id}`,
      `//www.youtube.com/watch?v=${id}`,
      id,
      "",
      "not a url"
    ]) {
      expect(reasonOf(input), input).toBe(hostedVideoReasons.notAnAddress)
    }
  })

  it("other path shapes on the right hosts are refused", () => {
    for (const path of [
      `/embed/${id}`,
      `/v/${id}`,
      `/live/${id}`,
      `/${id}`,
      `/watch/${id}`,
      `/watch/?v=${id}`,
      `/Watch?v=${id}`,
      `/shorts/${id}/`,
      `/shorts/${id}/extra`,
      `/shorts/`,
      `/channel/UC123/watch?v=${id}`,
      `/playlist?list=PL${id}`
    ]) {
      expect(reasonOf(`https://www.youtube.com${path}`), path).toBe(hostedVideoReasons.shape)
    }
    for (const path of ["/", `/${id}/`, `/watch/${id}`, `/shorts/${id}`, ""]) {
      expect(reasonOf(`https://youtu.be${path}`), path).toBe(hostedVideoReasons.shape)
    }
  })

  it("an address over 2048 characters is refused before parsing", () => {
    expect(reasonOf(`https://www.youtube.com/watch?v=${id}&pad=${"a".repeat(2048)}`)).toBe(hostedVideoReasons.tooLong)
  })

  it("every host the parser accepts is one of the declared video-host names", () => {
    expect(hostedVideoReasons.host).toContain(videohostHosts.join(", "))
  })
})
