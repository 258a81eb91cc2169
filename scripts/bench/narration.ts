import { performance } from "node:perf_hooks"
import { percentile } from "./samples.js"
import { get, ms, table } from "./walk.js"

/**
 * Narration on the server's speech engine (the local eSpeak-NG + LAME one
 * unless ELEVENLABS_API_KEY is set), over real HTTP:
 *
 * 1. 1000-character narrations one after another: latency p50/p95/p99 up to
 *    the full body (about 1.3 MB of JSON);
 * 2. GET /v1/me alone, then while 4 narrations run at once (each of 4 loops
 *    starts another as soon as one answers): p50/p99. The engine works in
 *    worker threads, so /me must stay fast (target p99 < 50 ms).
 *
 * Tokens rotate, so no token reaches narration's burst limit (20 in 10 s).
 */
export interface NarrationBenchInput {
  readonly base: string
  /** Tokens of people allowed to narrate (narration:synthesize); at least 5. */
  readonly tokens: ReadonlyArray<string>
  readonly samples: number
  readonly progress: (message: string) => void
}

const paragraph =
  "Before each shift, the team lead walks the loading dock and checks that every exit is clear, the forklifts are charged, " +
  "and the first-aid kit is complete. Anyone who notices a spill, a damaged pallet or a blocked aisle reports it at once, " +
  "because small hazards become injuries when a busy morning begins. New colleagues shadow an experienced driver for 3 days " +
  "and pass a short practical test before they operate equipment alone. "

/** A 1000-character text of ordinary English, cut at a word. */
export const thousandCharacters = (() => {
  let text = ""
  while (text.length < 1100) text += paragraph
  const cut = text.slice(0, 1000)
  return cut.slice(0, cut.lastIndexOf(" ")).padEnd(1000, ".")
})()

const narrate = async (base: string, token: string) => {
  const started = performance.now()
  const response = await fetch(`${base}/v1/narration/synthesize`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "accept-encoding": "identity" },
    body: JSON.stringify({ text: thousandCharacters })
  })
  const body = await response.text()
  const took = performance.now() - started
  if (response.status !== 200) throw new Error(`narration answered ${response.status}: ${body.slice(0, 300)}`)
  const answer = JSON.parse(body) as { words: ReadonlyArray<{ end: number }> }
  return { ms: took, bytes: body.length, audioSeconds: answer.words.at(-1)?.end ?? 0 }
}

const meLatencies = async (base: string, token: string, count: number, budgetMs: number) => {
  const latencies: Array<number> = []
  const started = performance.now()
  for (let i = 0; i < count && performance.now() - started < budgetMs; i++) latencies.push((await get(`${base}/v1/me`, token)).ms)
  return latencies
}

export const narrationBench = async (input: NarrationBenchInput): Promise<ReadonlyArray<string>> => {
  const { base, tokens, progress } = input
  if (tokens.length < 5) throw new Error("the narration bench needs 5 tokens with narration:synthesize")
  const tokenAt = (i: number) => tokens[i % tokens.length]!
  const lines: Array<string> = []

  // 1. One at a time.
  for (let i = 0; i < 2; i++) await narrate(base, tokenAt(i))
  const single: Array<Awaited<ReturnType<typeof narrate>>> = []
  const count = Math.min(input.samples, 30)
  for (let i = 0; i < count; i++) single.push(await narrate(base, tokenAt(i)))
  const latencies = single.map((s) => s.ms)
  progress(`narration of 1000 characters: p50 ${ms(percentile(latencies, 50))} ms`)
  lines.push(
    `\nnarration over HTTP, 1000 characters, one at a time: 2 warm-up requests, then ${count} timed (request start to full body;` +
      ` ${(single[0]!.bytes / 1e6).toFixed(2)} MB of JSON, ${single[0]!.audioSeconds.toFixed(1)} s of speech)\n`
  )
  lines.push(table(["request", "samples", "p50", "p95", "p99"], [[
    "POST /v1/narration/synthesize",
    String(count),
    ms(percentile(latencies, 50)),
    ms(percentile(latencies, 95)),
    ms(percentile(latencies, 99))
  ]]))

  // 2. /v1/me, alone and beside 4 narrations.
  const meToken = tokenAt(0)
  await meLatencies(base, meToken, 20, 5_000)
  const alone = await meLatencies(base, meToken, 300, 10_000)
  let running = true
  let narrated = 0
  const loops = Array.from({ length: 4 }, async (_, i) => {
    while (running) {
      await narrate(base, tokenAt(i + 1))
      narrated++
    }
  })
  // Let all four reach the engine before measuring.
  await new Promise((resolve) => setTimeout(resolve, 500))
  const beside = await meLatencies(base, meToken, 400, 15_000)
  running = false
  await Promise.all(loops)
  const p99 = percentile(beside, 99)
  progress(`GET /v1/me beside 4 narrations: p99 ${ms(p99)} ms`)
  lines.push(`\nGET /v1/me one at a time, alone and while 4 narrations of 1000 characters run at once (${narrated} narrations finished meanwhile)\n`)
  lines.push(table(["GET /v1/me", "samples", "p50", "p95", "p99"], [
    ["alone", String(alone.length), ms(percentile(alone, 50)), ms(percentile(alone, 95)), ms(percentile(alone, 99))],
    ["beside 4 narrations", String(beside.length), ms(percentile(beside, 50)), ms(percentile(beside, 95)), ms(p99)]
  ]))
  lines.push(p99 < 50 ? "GET /v1/me p99 beside 4 narrations is under the 50 ms target" : `WARNING: GET /v1/me p99 beside 4 narrations is ${ms(p99)} ms, over the 50 ms target`)
  return lines
}
