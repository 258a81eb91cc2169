import { describe, expect, it } from "@effect/vitest"
import { Duration } from "effect"
import { DEADLINE_TICK_MS, deadlineTable, deadlineWatch } from "../src/http/deadline.js"

/**
 * Routes given a later deadline than REQUEST_TIMEOUT_MS, by exact path or
 * by a pattern of paths (assigning a lesson: /v1/lessons/{id}/assignments).
 * The deadline's answer through the whole server is in database-outage.test.ts.
 */
const deadlineOf = deadlineTable(Duration.millis(100), [
  { path: "/v1/narration/synthesize", timeout: Duration.seconds(5) },
  { path: /^\/v1\/lessons\/[^/]+\/assignments$/, timeout: Duration.seconds(30) }
])

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("the request deadline of routes given longer", () => {
  it("a path matching a pattern or named exactly gets its own deadline; any other the default", () => {
    expect(Duration.toMillis(deadlineOf("/v1/lessons/les_123/assignments"))).toBe(30_000)
    expect(Duration.toMillis(deadlineOf("/v1/narration/synthesize"))).toBe(5_000)
    expect(Duration.toMillis(deadlineOf("/v1/lessons/les_123/unassign"))).toBe(100)
    expect(Duration.toMillis(deadlineOf("/v1/lessons/les_1/extra/assignments"))).toBe(100)
    expect(Duration.toMillis(deadlineOf("/v1/members"))).toBe(100)
  })
})

describe("the deadline watch", () => {
  it("a request still running at its deadline expires within a tick of it, once; one that finished never does", async () => {
    const watch = deadlineWatch()
    const expired: Array<string> = []
    const started = performance.now()
    let expiredAfter = 0
    watch.watch(Duration.millis(100), () => {
      expired.push("slow")
      expiredAfter = performance.now() - started
    })
    const quick = watch.watch(Duration.millis(100), () => expired.push("quick"))
    const longer = watch.watch(Duration.millis(400), () => expired.push("longer"))
    watch.release(quick)
    await sleep(100 + 3 * DEADLINE_TICK_MS)
    expect(expired).toEqual(["slow"])
    expect(expiredAfter).toBeGreaterThanOrEqual(100)
    watch.release(longer)
    await sleep(400)
    expect(expired).toEqual(["slow"])
  })

  it("requests with different timeouts expire each at its own deadline, whatever the order they came in", async () => {
    const watch = deadlineWatch()
    const expired: Array<string> = []
    watch.watch(Duration.millis(300), () => expired.push("300 ms"))
    await sleep(20)
    watch.watch(Duration.millis(60), () => expired.push("60 ms"))
    watch.watch(Duration.millis(60), () => expired.push("60 ms, second"))
    await sleep(60 + 3 * DEADLINE_TICK_MS)
    expect(expired).toEqual(["60 ms", "60 ms, second"])
    await sleep(300)
    expect(expired).toEqual(["60 ms", "60 ms, second", "300 ms"])
  })
})
