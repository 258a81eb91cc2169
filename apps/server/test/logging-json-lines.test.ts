import { describe, expect, it } from "@effect/vitest"
import { Cause, FiberId, FiberRefs, HashMap, List, Logger, LogLevel, LogSpan } from "effect"
import { jsonLineLogger } from "../src/observability/json-lines.js"

const date = new Date("2026-11-28T10:00:00.250Z")

const entry = (
  message: unknown,
  annotations: ReadonlyArray<readonly [string, unknown]>,
  extra: Partial<Logger.Logger.Options<unknown>> = {}
): Logger.Logger.Options<unknown> => ({
  fiberId: FiberId.make(42, 0),
  logLevel: LogLevel.Info,
  message,
  cause: Cause.empty,
  context: FiberRefs.empty(),
  spans: List.make(LogSpan.make("http.span.7", date.getTime() - 12)),
  annotations: HashMap.fromIterable(annotations),
  date,
  ...extra
})

describe("a JSON log line is the one Effect's JSON logger writes for the same entry", () => {
  const cases: ReadonlyArray<readonly [string, Logger.Logger.Options<unknown>]> = [
    [
      "the access log line: text, numbers, a log span",
      entry("Sent HTTP response", [["requestId", "r-1"], ["http.method", "GET"], ["http.url", "/v1/me?a=\"b\"\n"], ["http.status", 200]])
    ],
    ["no annotations, no spans", entry("started", [], { spans: List.empty() })],
    ["several messages, a boolean, null and undefined", entry(["one", 2, true, null], [["flag", false], ["none", null], ["gone", undefined]])],
    ["an undefined message", entry(undefined, [["k", "v"]])],
    ["text that needs escaping", entry("quote \" backslash \\ tab \t emoji 🎓 \u2028", [["k", "\u0000"]])],
    ["a warning with a failure", entry("failed", [["k", "v"]], { logLevel: LogLevel.Warning, cause: Cause.fail(new Error("boom")) })],
    ["an object annotation (goes through Effect's logger)", entry("x", [["object", { a: 1, nested: { b: [1, 2] } }]])],
    ["an error as the message (goes through Effect's logger)", entry(new Error("kaput"), [["k", "v"]])],
    ["a number as the message", entry(17, [])]
  ]
  for (const [name, options] of cases) {
    it(name, () => {
      expect(jsonLineLogger.log(options)).toBe(Logger.jsonLogger.log(options))
    })
  }
})
