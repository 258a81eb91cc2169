import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import { Data, Duration, Effect, Either, Exit, Pool, Schema } from "effect"
import type { EngineEvent } from "./espeak-timings.js"

/**
 * The local speech engine runs in a pool of worker threads
 * (speech-worker.mjs), never on the request fiber: a 1000-character text is
 * about a second of CPU, which on the event loop would stall every other
 * request. Threads start on the first job, not at layer build (each loads
 * ~25 MB of voice data and two WASM modules, ~0.3 s of CPU that server start
 * should not pay on a machine that may never narrate), and stop after sitting
 * idle. A thread whose job failed, timed out or was interrupted is
 * terminated: the next job gets a fresh one.
 */

interface EngineJob {
  /** Already escaped for the engine's SSML reader (`engineTextOf`). */
  readonly text: string
  /** An eSpeak-NG voice name, such as "en-us+f3". */
  readonly voice: string
}

interface EngineOutput {
  readonly mp3: Uint8Array
  readonly events: ReadonlyArray<EngineEvent>
  /** Length of the speech before encoding. */
  readonly speechMs: number
  readonly synthMs: number
  readonly encodeMs: number
}

export class EngineFailed extends Data.TaggedError("EngineFailed")<{ readonly reason: string }> {}

/** The thread handed out had stopped while idle (it crashed or was killed): the job goes to a fresh one. */
class ThreadStopped extends Data.TaggedError("ThreadStopped")<{ readonly reason: string }> {}

export interface SpeechEngineSettings {
  /** Threads at most, each speaking one text at a time. */
  readonly workers: number
  /** For one job, once a thread has it. */
  readonly jobTimeout: Duration.Duration
  /** A thread idle this long is stopped (its memory given back). */
  readonly idleTimeout: Duration.Duration
  /** The worker script; tests point it at stand-ins that crash or hang. */
  readonly workerUrl?: URL
}

/** One thread fewer than the machine has (the event loop keeps one), between 1 and 4. */
export const defaultWorkerCount = (): number => Math.max(1, Math.min(4, availableParallelism() - 1))

// Resolved next to this module: src/speech/ under tsx and vitest, dist/ in the bundle (scripts/build.mjs).
const speechWorkerUrl = new URL("./speech-worker.mjs", import.meta.url)

const WorkerReply = Schema.Union(
  Schema.Struct({
    id: Schema.Number,
    ok: Schema.Literal(true),
    mp3: Schema.instanceOf(Uint8Array),
    events: Schema.Array(Schema.Struct({
      type: Schema.Literal("word", "end"),
      textPosition: Schema.Number,
      audioMs: Schema.Number
    })),
    pcmSamples: Schema.Number,
    sampleRate: Schema.Number,
    synthMs: Schema.Number,
    encodeMs: Schema.Number
  }),
  Schema.Struct({ id: Schema.Number, ok: Schema.Literal(false), error: Schema.String })
)
const decodeReply = Schema.decodeUnknownEither(WorkerReply)

const isReady = (message: unknown) =>
  typeof message === "object" && message !== null && "ready" in message && message.ready === true

/** A started thread; `stopped` says why it can take no more jobs. */
interface EngineThread {
  readonly worker: Worker
  stopped: string | undefined
}

const startThread = (url: URL) =>
  Effect.acquireRelease(
    Effect.async<EngineThread, EngineFailed>((resume) => {
      // The thread's own output goes to stderr: in MCP stdio mode nothing but protocol may reach stdout.
      const worker = new Worker(url, { stdout: true })
      worker.stdout.on("data", (chunk: Buffer) => process.stderr.write(chunk))
      const thread: EngineThread = { worker, stopped: undefined }
      // Kept for the thread's life: an "error" event without a listener would crash the server.
      worker.on("error", (error) => {
        thread.stopped ??= `the speech worker crashed: ${error.message}`
      })
      worker.on("exit", (code) => {
        thread.stopped ??= `the speech worker stopped (exit code ${code})`
      })
      const onMessage = (message: unknown) => {
        if (!isReady(message)) return
        worker.off("message", onMessage).off("exit", onExit)
        // An idle thread does not keep the process alive; a job holds it (see `run`).
        worker.unref()
        resume(Effect.succeed(thread))
      }
      const onExit = () => {
        worker.off("message", onMessage).off("exit", onExit)
        resume(Effect.fail(new EngineFailed({ reason: thread.stopped ?? "the speech worker did not start" })))
      }
      worker.on("message", onMessage).on("exit", onExit)
      return Effect.promise(() => worker.terminate())
    }),
    (thread) => Effect.promise(() => thread.worker.terminate())
  )

const run = (thread: EngineThread, id: number, job: EngineJob) =>
  Effect.async<EngineOutput, EngineFailed | ThreadStopped>((resume) => {
    if (thread.stopped !== undefined) {
      resume(Effect.fail(new ThreadStopped({ reason: thread.stopped })))
      return
    }
    const { worker } = thread
    const settle = (result: Effect.Effect<EngineOutput, EngineFailed>) => {
      worker.off("message", onMessage).off("error", onStop).off("exit", onStop)
      worker.unref()
      resume(result)
    }
    const onMessage = (message: unknown) => {
      const reply = decodeReply(message)
      if (Either.isLeft(reply)) return settle(Effect.fail(new EngineFailed({ reason: "the speech worker's answer is unreadable" })))
      const answer = reply.right
      if (answer.id !== id) return
      if (!answer.ok) return settle(Effect.fail(new EngineFailed({ reason: answer.error })))
      settle(Effect.succeed({
        mp3: answer.mp3,
        events: answer.events,
        speechMs: answer.pcmSamples / answer.sampleRate * 1000,
        synthMs: answer.synthMs,
        encodeMs: answer.encodeMs
      }))
    }
    // The thread's own listeners (startThread) have set `stopped` by now: they were added first.
    const onStop = () => settle(Effect.fail(new EngineFailed({ reason: thread.stopped ?? "the speech worker stopped" })))
    worker.on("message", onMessage).on("error", onStop).on("exit", onStop)
    worker.ref()
    worker.postMessage({ id, text: job.text, voice: job.voice })
    return Effect.sync(() => {
      worker.off("message", onMessage).off("error", onStop).off("exit", onStop)
      worker.unref()
    })
  })

interface SpeechEngine {
  readonly speak: (job: EngineJob) => Effect.Effect<EngineOutput, EngineFailed>
}

/** The pool, stopped (its threads terminated) when the scope closes. */
export const makeSpeechEngine = (settings: SpeechEngineSettings) =>
  Effect.gen(function*() {
    const pool = yield* Pool.makeWithTTL({
      acquire: startThread(settings.workerUrl ?? speechWorkerUrl),
      min: 0,
      max: settings.workers,
      timeToLive: settings.idleTimeout,
      timeToLiveStrategy: "usage"
    })
    let lastId = 0

    const speakOnce = (job: EngineJob) =>
      Effect.scoped(
        Effect.gen(function*() {
          const thread = yield* pool.get
          return yield* run(thread, ++lastId, job).pipe(
            Effect.timeoutFail({
              duration: settings.jobTimeout,
              onTimeout: () =>
                new EngineFailed({ reason: `the speech worker did not answer within ${Duration.format(settings.jobTimeout)}` })
            }),
            // A thread that failed may be in any state: replace it rather than trust it.
            Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : pool.invalidate(thread))
          )
        })
      )

    const speak = (job: EngineJob) =>
      speakOnce(job).pipe(
        Effect.retry({ times: 1, while: (error) => error._tag === "ThreadStopped" }),
        Effect.catchTag("ThreadStopped", (error) => Effect.fail(new EngineFailed({ reason: error.reason })))
      )

    return { speak } satisfies SpeechEngine
  })
