import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { linesOf, startServerProcess, stop, waitReady } from "./support/server-process.js"

describe("credentials in a URL's query never reach the logs", () => {
  it.scopedLive("a token sent as ?access_token= is logged as REDACTED in the access log line, other parameters as sent", () =>
    Effect.gen(function*() {
      const server = yield* startServerProcess({ LOG_FORMAT: "json", SEED_DEMO: "false" })
      expect(yield* waitReady(server), server.stderr()).toBe(true)
      const status = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${server.port}/v1/me?access_token=SECRET-IN-QUERY&limit=5&Sig=SECRET-SIG`).then((r) => r.status)
      )
      expect(status).toBe(401)
      expect(yield* stop(server)).toBe(0)

      const output = server.stdout() + server.stderr()
      expect(output).not.toContain("SECRET")
      const access = linesOf(server.stdout()).map((line) => JSON.parse(line)).find((entry) =>
        String(entry.annotations?.["http.url"] ?? "").startsWith("/v1/me")
      )
      expect(access?.annotations["http.url"]).toBe("/v1/me?access_token=REDACTED&limit=5&Sig=REDACTED")
      expect(access?.annotations["http.status"]).toBe(401)
    }), { timeout: 120_000 })
})
