import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { acmeCallerMatrix } from "../test/support/callers.js"
import { baseUrl, TestServerWithoutWorkersLive } from "../test/support/server.js"
import { budget, SEED } from "./budget.js"
import { declared503Tags, declaredTags, endpoints, tools } from "./fuzz/contract.js"
import { describe as describeExchange, type FuzzResponse, send } from "./fuzz/exchange.js"
import { changedTables, fingerprint } from "./fuzz/fingerprint.js"
import { rngOf } from "./fuzz/random.js"
import { type FuzzRequest, requestGenerator, type World } from "./fuzz/requests.js"
import { mayHaveWritten, problemsOf } from "./fuzz/verdict.js"

/**
 * The contract fuzz: requests generated from the contract's own Schemas
 * (every /v1 endpoint's path, query and payload, every tool's input over
 * /mcp and /rpc), then broken in every way a client could break them, from
 * callers of every role, without a token and with bad ones, against one
 * real server. Replay a failure with RELIABILITY_SEED=<seed>.
 */
const REQUESTS = budget(5_000, 100_000)
/** Requests in flight at once; a batch is fingerprinted as a whole, so this does not blur which writes happened. */
const CONCURRENCY = 6
const BATCH = 30

// Every request counts against its token's limit; this suite is not about the limit.
const Unlimited = Layer.setConfigProvider(
  ConfigProvider.fromMap(new Map([["RATE_LIMIT_PER_MINUTE", "1000000000"]])).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromEnv())
  )
)

const idsOf = (ids: Record<string, Record<string, string>>) => Object.values(ids).flatMap((byKey) => Object.values(byKey))

// Cursors the other organization's admin was given, to be sent with the callers' own tokens.
const foreignCursors = (url: string, token: string) =>
  Effect.promise(async () => {
    const cursors: Array<string> = []
    for (const endpoint of endpoints) {
      if (endpoint.method !== "GET" || endpoint.path.includes(":")) continue
      const response = await fetch(`${url}${endpoint.path}?limit=1`, { headers: { authorization: `Bearer ${token}` } })
      const json: unknown = await response.json().catch(() => undefined)
      if (typeof json === "object" && json !== null && "nextCursor" in json && typeof json.nextCursor === "string") cursors.push(json.nextCursor)
    }
    return cursors
  })

const inParallel = async <A, B>(items: ReadonlyArray<A>, limit: number, run: (item: A) => Promise<B>) => {
  const results = new Array<B>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await run(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: limit }, worker))
  return results
}

interface Finding {
  readonly problem: string
  readonly example: string
  count: number
}

layer(TestServerWithoutWorkersLive.pipe(Layer.provide(Unlimited)), { excludeTestServices: true, timeout: 300_000 })("the contract fuzz", (it) => {
  it.effect(
    "whatever is sent, by whomever: no 5xx but a declared 503, every 4xx a JSON {code, message}, no undeclared _tag, no 2xx without a valid token, and a refused request writes nothing",
    () =>
      Effect.gen(function*() {
        const { other, result, tokens } = yield* acmeCallerMatrix
        const url = yield* baseUrl
        const world: World = {
          tokens: { ...tokens, malformed: undefined },
          idsA: idsOf(result.ids),
          idsB: idsOf(other.ids),
          foreignCursors: yield* foreignCursors(url, tokens.otherOrgAdmin)
        }
        const declared = { tags: declaredTags, tags503: declared503Tags }
        const next = requestGenerator(endpoints, tools, world, rngOf(SEED))

        const findings = new Map<string, Finding>()
        const record = (problem: string, example: string) => {
          const known = findings.get(problem)
          if (known !== undefined) known.count++
          else findings.set(problem, { problem, example, count: 1 })
        }
        const byStatus = new Map<number, number>()
        const byTransport = new Map<string, number>()
        let comparedBatches = 0
        let fingerprintMs = 0
        const started = Date.now()
        const timedFingerprint = Effect.suspend(() => {
          const at = Date.now()
          return fingerprint.pipe(Effect.ensuring(Effect.sync(() => (fingerprintMs += Date.now() - at))))
        })

        let before = yield* timedFingerprint
        for (let start = 0; start < REQUESTS; start += BATCH) {
          const batch: Array<FuzzRequest> = []
          for (let index = start; index < Math.min(start + BATCH, REQUESTS); index++) batch.push(next(index))
          const responses: Array<FuzzResponse> = yield* Effect.promise(() => inParallel(batch, CONCURRENCY, (request) => send(url, request)))
          batch.forEach((request, i) => {
            const response = responses[i]!
            byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1)
            byTransport.set(request.transport, (byTransport.get(request.transport) ?? 0) + 1)
            for (const problem of problemsOf(request, response, declared)) {
              record(`${request.transport} ${problem}`, describeExchange(request, response))
            }
          })
          const after = yield* timedFingerprint
          if (!batch.some((request, i) => mayHaveWritten(request, responses[i]!))) {
            comparedBatches++
            const changed = changedTables(before, after)
            if (changed.length > 0) {
              const writes = batch.flatMap((request, i) => (request.method === "GET" ? [] : [describeExchange(request, responses[i]!)]))
              record(`a batch of refused requests changed ${changed.join(", ")}`, writes.slice(0, 5).join("\n"))
            }
          }
          before = after
        }

        const seconds = ((Date.now() - started) / 1000).toFixed(1)
        const statuses = [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(", ")
        const fiveHundreds = [...byStatus.entries()].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0)
        const transports = [...byTransport.entries()].map(([transport, count]) => `${transport} ${count}`).join(", ")
        console.log(
          `contract fuzz: seed ${SEED}, ${REQUESTS} requests (${transports}) in ${seconds} s (${(fingerprintMs / 1000).toFixed(1)} s of it comparing tables); by status {${statuses}}; 5xx seen: ${fiveHundreds}; ` +
            `${comparedBatches} batches without an accepted write fingerprinted; problems: ${[...findings.values()].map((f) => `${f.problem} x${f.count}`).join("; ") || "none"}`
        )
        const report = [...findings.values()].map((finding) => `${finding.problem} (x${finding.count}), e.g.\n${finding.example}`)
        expect(report, `contract fuzz, seed ${SEED} (replay: RELIABILITY_SEED=${SEED}):\n${report.join("\n\n")}`).toEqual([])
      }),
    // A time limit only against a hang: how long a run takes is measured (its summary line), not asserted.
    budget(600_000, 2_400_000)
  )
})
