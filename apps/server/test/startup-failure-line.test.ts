import { describe, expect, it } from "@effect/vitest"
import { HttpServerError } from "@effect/platform"
import { Cause, ConfigError, Data, FiberId, Option } from "effect"
import { failureLine } from "../src/startup/failure.js"

class DatabaseDown extends Data.TaggedError("DatabaseDown")<{ readonly message: string; readonly cause?: unknown }> {}

const listenError = Object.assign(new Error("listen EADDRINUSE: address already in use 0.0.0.0:3000"), {
  code: "EADDRINUSE",
  syscall: "listen",
  address: "0.0.0.0",
  port: 3000
})

describe("a start-up failure reads as one line", () => {
  it("an error's message is followed by its causes' when they add something, on one line", () => {
    const refused = new AggregateError([
      new Error("connect ECONNREFUSED ::1:5432"),
      new Error("connect ECONNREFUSED 127.0.0.1:5432")
    ])
    const line = failureLine(Cause.fail(new DatabaseDown({ message: "The database did not answer\nafter 5 attempts", cause: refused })))
    expect(line).toEqual(Option.some(
      "Cannot start the service: The database did not answer; after 5 attempts: connect ECONNREFUSED ::1:5432, connect ECONNREFUSED 127.0.0.1:5432"
    ))
  })

  it("a port taken when the listener opens reads as the port check's sentence", () => {
    const line = failureLine(Cause.fail(new HttpServerError.ServeError({ cause: listenError })))
    expect(Option.getOrThrow(line)).toBe(
      "Cannot start the service: port 3000 is already in use (0.0.0.0:3000): stop the process using it or set PORT to a free port"
    )
  })

  it("several bad settings are all named; Effect's own messages get the variable's name", () => {
    const error = ConfigError.And(
      ConfigError.InvalidData(["PORT"], `PORT must be a port number (1-65535), got "x"`),
      ConfigError.InvalidData(["DB_POOL_MAX"], `Expected an integer value but received "y"`)
    )
    expect(Option.getOrThrow(failureLine(Cause.fail(error)))).toBe(
      `Cannot start the service: PORT must be a port number (1-65535), got "x"; DB_POOL_MAX: Expected an integer value but received "y"`
    )
  })

  it("a defect prints its message, not its stack; an interruption (SIGTERM) prints nothing", () => {
    const line = Option.getOrThrow(failureLine(Cause.die(new TypeError("boom"))))
    expect(line).toBe("Cannot start the service: boom")
    expect(failureLine(Cause.interrupt(FiberId.none))).toEqual(Option.none())
  })
})
