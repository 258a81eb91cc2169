import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { withDeadline } from "../src/http/deadline.js"

/**
 * Routes given a later deadline than REQUEST_TIMEOUT_MS, by exact path or
 * by a pattern of paths (assigning a lesson: /v1/lessons/{id}/assignments).
 */
const deadline = withDeadline(Duration.millis(100), [
  { path: "/v1/narration/synthesize", timeout: Duration.seconds(5) },
  { path: /^\/v1\/lessons\/[^/]+\/assignments$/, timeout: Duration.seconds(5) }
])

/** A route that takes 400 ms, called at `path`: its status. */
const slowAt = (path: string) =>
  deadline(Effect.sleep(Duration.millis(400)).pipe(Effect.as(HttpServerResponse.text("done")))).pipe(
    Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(new Request(`http://test${path}`, { method: "POST" }))),
    Effect.map((response) => response.status)
  )

describe("the request deadline of routes given longer", () => {
  it.live("a path matching a pattern or named exactly gets its own deadline; any other the default", () =>
    Effect.gen(function*() {
      expect(yield* slowAt("/v1/lessons/les_123/assignments")).toBe(200)
      expect(yield* slowAt("/v1/lessons/les_123/assignments?x=1")).toBe(200)
      expect(yield* slowAt("/v1/narration/synthesize")).toBe(200)
      expect(yield* slowAt("/v1/lessons/les_123/unassign")).toBe(503)
      expect(yield* slowAt("/v1/lessons/les_1/extra/assignments")).toBe(503)
      expect(yield* slowAt("/v1/members")).toBe(503)
    }))
})
