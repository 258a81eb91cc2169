import { Config, Context, Effect, FiberRef, FiberRefs, HashMap, Layer, Logger, LogLevel, Tracer } from "effect"
import { setting, withEnvironmentDefault } from "../config.js"
import { jsonLineLogger } from "./json-lines.js"
import { redactQuery } from "./redaction.js"

/**
 * The names the README documents, matched case-insensitively, plus Effect's
 * own `warn` and `fatal`. Config.logLevel takes only Effect's labels and
 * stops the service on `Warning`.
 */
const levels: Record<string, LogLevel.LogLevel> = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  warn: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
}

export const LogLevelConfig = setting(
  "LOG_LEVEL",
  "one of All, Trace, Debug, Info, Warning, Error, None (any case; warn and fatal too)",
  (text) => levels[text.trim().toLowerCase()]
).pipe(Config.withDefault(LogLevel.Info))

const formats = ["json", "logfmt", "pretty"] as const
type LogFormat = (typeof formats)[number]

export const LogFormatConfig = withEnvironmentDefault<LogFormat>(
  setting("LOG_FORMAT", "json, logfmt or pretty", (text) => formats.find((format) => format === text.trim().toLowerCase())),
  (production) => production ? "json" : "logfmt"
)

type Stream = "stdout" | "stderr"

/**
 * Writes log lines to a stream in batches: the lines logged in one turn of
 * the event loop go out in one write, after it. Writes to a file or a pipe
 * are synchronous in Node, a system call each: one per line was one per
 * request for the access log alone. What is still pending when the process
 * exits is written then (an exit handler may write synchronously).
 */
const batchedLines = (stream: NodeJS.WriteStream) => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const text = pending.join("")
    pending = []
    stream.write(text)
  }
  process.on("exit", flush)
  return (line: string): void => {
    if (pending.length === 0) setImmediate(flush)
    pending.push(`${line}\n`)
  }
}

const writers: Partial<Record<Stream, (line: string) => void>> = {}
const writerFor = (stream: Stream) =>
  writers[stream] ??= batchedLines(stream === "stderr" ? process.stderr : process.stdout)

const formattedLogger = (format: LogFormat, stream: Stream): Logger.Logger<unknown, void> => {
  if (format === "pretty") return Logger.prettyLogger({ stderr: stream === "stderr" })
  const text = format === "json" ? jsonLineLogger : Logger.logfmtLogger
  return Logger.map(text, writerFor(stream))
}

const redactText = (value: unknown): unknown => typeof value === "string" ? redactQuery(value) : value

// Only text with a `=` can hold a credential parameter (redactQuery): most lines have none, and are passed on as they are.
const mayHoldCredential = (value: unknown): boolean => typeof value === "string" && value.includes("=")

const annotationsMayHoldCredentials = (annotations: HashMap.HashMap<string, unknown>): boolean => {
  for (const value of HashMap.values(annotations)) {
    if (mayHoldCredential(value)) return true
  }
  return false
}

/**
 * No credential passed in a URL's query reaches a log line: the access
 * log's `http.url` annotation and any other text annotation or message have
 * those values replaced (./redaction.ts).
 */
const withoutUrlCredentials = (logger: Logger.Logger<unknown, void>): Logger.Logger<unknown, void> =>
  Logger.make((options) => {
    const message = options.message
    const messageMay = Array.isArray(message) ? message.some(mayHoldCredential) : mayHoldCredential(message)
    const annotationsMay = annotationsMayHoldCredentials(options.annotations)
    if (!messageMay && !annotationsMay) return logger.log(options)
    return logger.log({
      ...options,
      message: Array.isArray(message) ? message.map(redactText) : redactText(message),
      annotations: annotationsMay ? HashMap.map(options.annotations, redactText) : options.annotations
    })
  })

/** The span a line is logged in, when it is one that is exported (with tracing off, spans are no-ops: "noop" ids). */
const exportedSpanOf = (context: FiberRefs.FiberRefs): Tracer.AnySpan | undefined => {
  const span = Context.getOption(FiberRefs.getOrDefault(context, FiberRef.currentContext), Tracer.ParentSpan)
  return span._tag === "Some" && span.value.traceId !== "noop" ? span.value : undefined
}

/**
 * Every line logged inside a span carries `trace_id` and `span_id`, the
 * OpenTelemetry log fields that take a reader from a line to its trace.
 */
export const withTraceContext = (logger: Logger.Logger<unknown, void>): Logger.Logger<unknown, void> =>
  Logger.make((options) => {
    const span = exportedSpanOf(options.context)
    if (span === undefined) return logger.log(options)
    return logger.log({
      ...options,
      annotations: HashMap.set(HashMap.set(options.annotations, "trace_id", span.traceId), "span_id", span.spanId)
    })
  })

const loggerOf = (format: LogFormat, stream: Stream) => withTraceContext(withoutUrlCredentials(formattedLogger(format, stream)))

/**
 * Structured logs on `stream`: JSON lines (LOG_FORMAT=json, the default when
 * NODE_ENV=production) or a readable form for a terminal; LOG_LEVEL sets
 * the minimum level (default Info).
 */
export const loggingOn = (stream: Stream) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const format = yield* LogFormatConfig
      const level = yield* LogLevelConfig
      return Layer.merge(Logger.replace(Logger.defaultLogger, loggerOf(format, stream)), Logger.minimumLogLevel(level))
    })
  )

/**
 * The server's logs, on stdout. Everything else the process says (the start
 * banner, a start-up failure) goes to stderr, so with JSON every stdout line
 * parses.
 */
export const LoggingLive = loggingOn("stdout")
