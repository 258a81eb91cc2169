import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { demoBodies } from "@tks/core/demo/library"
import { banner } from "../src/startup/banner.js"

const tokens = Option.some({ ava: "tks_ava_secret", ben: "tks_ben_secret", eve: "tks_eve_secret", kai: "tks_kai_secret", finn: "tks_finn_secret" })
const curlLines = (text: string) => text.split("\n").map((line) => line.trim()).filter((line) => line.startsWith("curl "))

describe("the banner's ready-to-paste calls", () => {
  it("name the library, a search and the categories as the demo admin, each a paste-safe shell line", () => {
    const lines = curlLines(banner("http://localhost:3000", tokens, { production: false }))
    const auth = "curl -s -H 'Authorization: Bearer tks_ben_secret'"
    expect(lines).toContain(`${auth} 'http://localhost:3000/v1/content?limit=5'`)
    expect(lines).toContain(`${auth} -H 'content-type: application/json' -d '{"text": "Welcome to Acme Logistics."}' http://localhost:3000/v1/narration/synthesize`)
    expect(lines).toContain(`${auth} http://localhost:3000/v1/narration/usage`)
    expect(lines).toContain(`${auth} 'http://localhost:3000/v1/search?query=forklift'`)
    expect(lines).toContain(`${auth} http://localhost:3000/v1/categories`)
    expect(lines.some((line) => line.startsWith(auth) && line.endsWith(" http://localhost:3000/mcp") && line.includes('"name":"search_service"'))).toBe(true)
    // A URL with ? or & is quoted, or the shell would read it as a glob or a background job.
    for (const line of lines) {
      const url = line.slice(line.indexOf("' ") + 2)
      if (/[?&]/.test(url)) expect(url, line).toMatch(/^'[^']+'$/)
    }
  })

  it("show the demo learner's learning queue, obligations and enrollments", () => {
    const lines = curlLines(banner("http://localhost:3000", tokens, { production: false }))
    const auth = "curl -s -H 'Authorization: Bearer tks_finn_secret'"
    expect(lines).toContain(`${auth} http://localhost:3000/v1/me/learning-queue`)
    expect(lines).toContain(`${auth} http://localhost:3000/v1/me/obligations`)
    expect(lines).toContain(`${auth} http://localhost:3000/v1/me/enrollments`)
  })

  it("search for a word the demo library holds, so the line shows results once processing finishes", () => {
    const searched = /\/v1\/search\?query=([a-z]+)/.exec(banner("http://localhost:3000", tokens, { production: false }))?.[1]
    expect(searched).toBeDefined()
    const documents = [demoBodies.handbook, demoBodies.expenses, demoBodies.incidents, demoBodies.returns]
    expect(documents.filter((body) => body.toLowerCase().includes(searched ?? "?")).length).toBeGreaterThan(0)
  })

  it("are not printed without the demo organization, nor in production", () => {
    expect(curlLines(banner("http://localhost:3000", Option.none(), { production: false }))).toEqual([])
    expect(curlLines(banner("https://tks.example", tokens, { production: true }))).toEqual([])
  })
})
