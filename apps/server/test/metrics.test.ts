import { HttpServerResponse } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Context, Duration, Effect, Exit, Layer, Logger, LogLevel, Option } from "effect"
import { narrationMonthlyAllowance } from "@tks/domain/narration"
import { Metrics, metricsWith, MetricsLive, type MetricsSettings } from "../src/observability/metrics.js"
import { DatabaseMetricsLive } from "../src/observability/metrics-database.js"
import { requestDurations, routeTemplates } from "../src/observability/metrics-http.js"
import { failureLine } from "../src/startup/failure.js"
import { preflight } from "../src/startup/preflight.js"
import { assignersOnce, post } from "./support/assigners.js"
import { narratorsOnce, startMonthAt, synthesize } from "./support/narrators.js"
import { type Sample, samplesOf, scrape, valueOf } from "./support/prometheus.js"
import { freePort, occupyPort } from "./support/server-process.js"
import { raw, TestServerWithoutWorkersLive, TestWorkersLive } from "./support/server.js"

const settingsOn = (port: number): MetricsSettings => ({
  port: Option.some(port),
  host: "127.0.0.1",
  otlpEndpoint: Option.none(),
  exportIntervalMs: 60_000,
  serviceName: "training-knowledge-service"
})

class ScrapeUrl extends Context.Tag("test/ScrapeUrl")<ScrapeUrl, string>() {}

/**
 * The test server without job workers (a queued job stays queued until the
 * test starts them), with metrics served on a port of its own.
 */
const MeasuredServerLive = Layer.unwrapEffect(
  Effect.map(freePort, (port) =>
    DatabaseMetricsLive.pipe(
      Layer.provideMerge(TestServerWithoutWorkersLive),
      Layer.provideMerge(metricsWith(settingsOn(port))),
      Layer.merge(Layer.succeed(ScrapeUrl, `http://127.0.0.1:${port}/metrics`))
    ))
)

const scraped = Effect.flatMap(ScrapeUrl, scrape)

const DURATION_COUNT = "http_server_request_duration_count"

/** Polls the scrape every 50 ms until `done` holds of its samples (the test's timeout bounds the wait). */
const scrapedUntil = (done: (samples: ReadonlyArray<Sample>) => boolean) =>
  Effect.gen(function*() {
    while (true) {
      const { samples } = yield* scraped
      if (done(samples)) return samples
      yield* Effect.sleep(Duration.millis(50))
    }
  })

describe("route templates", () => {
  const routeOf = routeTemplates([
    { method: "GET", path: "/v1/members/:id" },
    { method: "GET", path: "/v1/members/progress" },
    { method: "POST", path: "/v1/lessons/:id/assignments" }
  ])

  it("a request's route is its template with {name} parameters, the literal route winning over a parameter, HEAD taking GET's", () => {
    expect(routeOf("GET", "/v1/members/usr_123")).toBe("/v1/members/{id}")
    expect(routeOf("HEAD", "/v1/members/usr_123")).toBe("/v1/members/{id}")
    expect(routeOf("GET", "/v1/members/progress")).toBe("/v1/members/progress")
    expect(routeOf("POST", "/v1/lessons/les_9/assignments")).toBe("/v1/lessons/{id}/assignments")
  })

  it("a path no route has, or a method its route lacks, has no route", () => {
    expect(routeOf("GET", "/v1/nothing/here")).toBeUndefined()
    expect(routeOf("DELETE", "/v1/members/usr_123")).toBeUndefined()
    expect(routeOf("GET", `/v1/members/${"x".repeat(101)}`)).toBeUndefined()
  })
})

describe("metrics off", () => {
  it.effect("with neither METRICS_PORT nor OTEL_EXPORTER_OTLP_ENDPOINT there is no meter, and the edge is left as it is", () =>
    Effect.gen(function*() {
      const { meter } = yield* Effect.provide(Metrics, MetricsLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))))
      expect(Option.isNone(meter)).toBe(true)
      const app = Effect.succeed(HttpServerResponse.empty())
      const unmeasured = yield* Effect.provideService(requestDurations([]), Metrics, { meter })
      expect(unmeasured(app)).toBe(app)
      const absent = yield* requestDurations([])
      expect(absent(app)).toBe(app)
    }).pipe(Effect.scoped))
})

describe("METRICS_PORT at start-up", () => {
  const startLine = (env: Record<string, string>) =>
    preflight.pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.exit,
      Effect.map((exit) => (Exit.isFailure(exit) ? Option.getOrElse(failureLine(exit.cause), () => "") : "started"))
    )

  it.effect("a METRICS_PORT that is not a port, or is the API's PORT, stops the start naming it", () =>
    Effect.gen(function*() {
      expect(yield* startLine({ METRICS_PORT: "abc" })).toBe(`Cannot start the service: METRICS_PORT must be a port number (1-65535), got "abc"`)
      expect(yield* startLine({ PORT: "3999", METRICS_PORT: "3999" })).toBe(
        "Cannot start the service: METRICS_PORT must differ from PORT (3999): metrics have their own listener, never the API's"
      )
    }))

  it.effect("a METRICS_PORT another program holds stops the start saying so", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      yield* occupyPort(port)
      const exit = yield* Effect.exit(Layer.build(metricsWith(settingsOn(port))))
      expect(Exit.isFailure(exit) ? Option.getOrElse(failureLine(exit.cause), () => "") : "started").toBe(
        `Cannot start the service: METRICS_PORT ${port} is already in use (127.0.0.1:${port}): stop the process using it or set METRICS_PORT to a free port`
      )
    }).pipe(Effect.scoped))
})

layer(MeasuredServerLive, { excludeTestServices: true })("/metrics in the Prometheus text format", (it) => {
  it.effect("only GET /metrics is served on the metrics port: another path is 404, another method 405 with Allow", () =>
    Effect.gen(function*() {
      const url = yield* ScrapeUrl
      const metrics = yield* scraped
      expect(metrics.status).toBe(200)
      expect(metrics.contentType).toContain("text/plain")
      const elsewhere = yield* Effect.promise(() => fetch(url.replace(/\/metrics$/, "/v1/me")))
      expect(elsewhere.status).toBe(404)
      expect(yield* Effect.promise(() => elsewhere.json())).toMatchObject({ code: "NOT_FOUND" })
      const posted = yield* Effect.promise(() => fetch(url, { method: "POST" }))
      expect(posted.status).toBe(405)
      expect(posted.headers.get("allow")).toBe("GET, HEAD")
    }))

  it.effect("of the Effect metrics only the service's own are exported, not the Effect runtime's fiber counts", () =>
    Effect.gen(function*() {
      expect((yield* raw("GET", "/health")).status).toBe(200)
      const { samples } = yield* scraped
      expect(samples.filter((sample) => sample.name.startsWith("effect_"))).toEqual([])
      expect(samplesOf(samples, DURATION_COUNT, { http_route: "/health" }).length).toBeGreaterThan(0)
    }))

  it.effect("each request is timed by method, route template and status; a path no route has is timed without a route", () =>
    Effect.gen(function*() {
      const { result, token } = yield* narratorsOnce
      const member = result.ids.people["viewer"]!
      const labels = { http_request_method: "GET", http_response_status_code: "200", http_route: "/v1/members/{id}" }
      const before = valueOf((yield* scraped).samples, DURATION_COUNT, labels)
      expect((yield* raw("GET", `/v1/members/${member}`, { token: token("admin") })).status).toBe(200)
      expect((yield* raw("GET", `/v1/members/${member}`, { token: token("admin") })).status).toBe(200)
      expect((yield* raw("GET", "/v1/no/such/route")).status).toBe(404)
      const { samples, text } = yield* scraped
      expect(valueOf(samples, DURATION_COUNT, labels)).toBe(before + 2)
      // Seconds: two quick answers take well under the 30 s bucket, and more than nothing.
      expect(valueOf(samples, "http_server_request_duration_bucket", { ...labels, le: "30" })).toBe(before + 2)
      expect(valueOf(samples, "http_server_request_duration_sum", labels)).toBeGreaterThan(0)
      // The template, never the path: no series names the member.
      expect(text).not.toContain(member)
      const unrouted = samplesOf(samples, DURATION_COUNT, { http_response_status_code: "404" })
      expect(unrouted.length).toBeGreaterThan(0)
      expect(unrouted.every((sample) => sample.labels["http_route"] === undefined)).toBe(true)
    }))

  it.effect("the pool reports its connections by state, its size, the callers waiting and each wait for a connection", () =>
    Effect.gen(function*() {
      expect((yield* raw("GET", "/ready")).status).toBe(200)
      const { samples } = yield* scraped
      const pool = { db_client_connection_pool_name: "tks" }
      const idle = samplesOf(samples, "db_client_connection_count", { ...pool, db_client_connection_state: "idle" })
      const used = samplesOf(samples, "db_client_connection_count", { ...pool, db_client_connection_state: "used" })
      expect(idle).toHaveLength(1)
      expect(used).toHaveLength(1)
      // Between requests the pool holds at least the connection the readiness probe used, and at most its size (TEST_POOL: 5).
      expect(idle[0]!.value + used[0]!.value).toBeGreaterThan(0)
      expect(valueOf(samples, "db_client_connection_max", pool)).toBe(5)
      expect(samplesOf(samples, "db_client_connection_pending_requests", pool)).toHaveLength(1)
      expect(valueOf(samples, "db_client_connection_wait_time_count", pool)).toBeGreaterThan(0)
    }))

  it.effect("a 429 counts as a refusal of its rule: the per-token learning-queue limit, and the narration allowance", () =>
    Effect.gen(function*() {
      const { result, token } = yield* narratorsOnce
      const refusals = (rule: string) => Effect.map(scraped, ({ samples }) => valueOf(samples, "tks_rate_limit_refusals_total", { rule }))
      const queueBefore = yield* refusals("learning-queue")
      const quotaBefore = yield* refusals("narration-quota")
      // 20 a minute per token: the 21st is refused.
      const statuses: Array<number> = []
      for (let i = 0; i < 21; i++) statuses.push((yield* raw("GET", "/v1/me/learning-queue", { token: token("reader01") })).status)
      expect(statuses.filter((status) => status === 429)).toHaveLength(1)
      expect(yield* refusals("learning-queue")).toBe(queueBefore + 1)
      yield* startMonthAt(result.organizationId, narrationMonthlyAllowance)
      expect((yield* synthesize(token("reader02"), { text: "One more sentence." })).status).toBe(429)
      expect(yield* refusals("narration-quota")).toBe(quotaBefore + 1)
    }))

  it.effect("narration characters used and remaining this month, by organization", () =>
    Effect.gen(function*() {
      const { quiet, result } = yield* narratorsOnce
      yield* startMonthAt(result.organizationId, 1234)
      const { samples } = yield* scraped
      const of = (organization: string, state: string) => valueOf(samples, "tks_narration_characters", { organization, state })
      expect(of(result.organizationId, "used")).toBe(1234)
      expect(of(result.organizationId, "remaining")).toBe(narrationMonthlyAllowance - 1234)
      // An organization that has not narrated this month has no series (it has used 0).
      expect(samplesOf(samples, "tks_narration_characters", { organization: quiet.organizationId })).toEqual([])
    }))

  it.effect("an assignment's jobs show in the queues and its notifications as pending; once workers run them the queues empty and each run counts by outcome", () =>
    Effect.gen(function*() {
      const { lessonId, token, userId } = yield* assignersOnce
      const runs = (samples: ReadonlyArray<Sample>, kind: string, outcome: string) => valueOf(samples, "tks_jobs_runs_total", { kind, outcome })
      const before = (yield* scraped).samples
      const people = [userId("ann"), userId("bob"), userId("dee")]
      // The lesson has no content: its quizzes cannot be written, and each quiz job fails for good after its attempts.
      const assigned = yield* post(`/v1/lessons/${lessonId("open")}/assignments`, token("admin"), { audience: "users", userIds: people })
      expect(assigned.status).toBe(200)

      const queued = (yield* scraped).samples
      // A quiz to prepare per person; an email each and a text to ann (she has a phone).
      expect(valueOf(queued, "tks_jobs_queue_depth", { kind: "quiz.prepare" })).toBe(3)
      expect(valueOf(queued, "tks_jobs_queue_depth", { kind: "notification.deliver" })).toBe(4)
      expect(valueOf(queued, "tks_jobs_oldest_age", { kind: "quiz.prepare" })).toBeGreaterThanOrEqual(0)
      // Every kind the workers know is reported, a quiet one as 0.
      expect(samplesOf(queued, "tks_jobs_queue_depth", { kind: "pop-quiz.prepare" }).map((sample) => sample.value)).toEqual([0])
      expect(valueOf(queued, "tks_outbox_pending")).toBe(4)
      expect(samplesOf(queued, "tks_outbox_delivery_lag")).toHaveLength(1)

      // A run is counted after its outcome is written: once all are, the queues must be empty.
      // The failing quiz jobs' warnings are expected here, not news.
      yield* Effect.scoped(
        Effect.zipRight(
          Layer.build(TestWorkersLive),
          scrapedUntil((samples) =>
            runs(samples, "quiz.prepare", "failed") >= runs(before, "quiz.prepare", "failed") + 3 &&
            runs(samples, "notification.deliver", "completed") >= runs(before, "notification.deliver", "completed") + 4
          )
        )
      ).pipe(Logger.withMinimumLogLevel(LogLevel.None))
      const drained = (yield* scraped).samples
      expect(runs(drained, "notification.deliver", "completed")).toBe(runs(before, "notification.deliver", "completed") + 4)
      // Five attempts each (the queue's default): four retried, the fifth failed for good.
      expect(runs(drained, "quiz.prepare", "retrying")).toBe(runs(before, "quiz.prepare", "retrying") + 12)
      expect(runs(drained, "quiz.prepare", "failed")).toBe(runs(before, "quiz.prepare", "failed") + 3)
      expect(valueOf(drained, "tks_jobs_queue_depth", { kind: "quiz.prepare" })).toBe(0)
      expect(valueOf(drained, "tks_jobs_queue_depth", { kind: "notification.deliver" })).toBe(0)
      expect(valueOf(drained, "tks_jobs_oldest_age", { kind: "quiz.prepare" })).toBe(0)
      expect(valueOf(drained, "tks_outbox_pending")).toBe(0)
      expect(valueOf(drained, "tks_outbox_delivery_lag")).toBe(0)
    }), 60_000)
})
