import { describe, expect, it } from "@effect/vitest"
import { SqlError } from "@effect/sql/SqlError"
import { classifySqlError } from "../src/sql-errors.js"

/** A SqlError as @effect/sql-pg wraps what pg reports: the server's error carries the SQLSTATE in `code`. */
const fromServer = (code: string, message: string) =>
  new SqlError({
    message: "Failed to execute statement",
    cause: Object.assign(new Error(message), { code, severity: "ERROR" })
  })

describe("a cancelled statement (SQLSTATE 57014) is told apart by why it was cancelled", () => {
  it("a statement timeout is its own kind, timeout (503 DATABASE_TIMEOUT), not the database being away", () => {
    expect(classifySqlError(fromServer("57014", "canceling statement due to statement timeout"))).toBe("timeout")
  })

  it("a cancel on user request (pg_cancel_backend, a client cancel) is our bug to look at: other, a logged 500", () => {
    expect(classifySqlError(fromServer("57014", "canceling statement due to user request"))).toBe("other")
  })

  it("any other 57014 is other too; only a lost, refused or exhausted connection is unavailable", () => {
    expect(classifySqlError(fromServer("57014", "canceling autovacuum task"))).toBe("other")
    expect(classifySqlError(fromServer("57P01", "terminating connection due to administrator command"))).toBe("unavailable")
    expect(classifySqlError(fromServer("08006", "connection failure"))).toBe("unavailable")
    expect(classifySqlError(fromServer("53300", "sorry, too many clients already"))).toBe("unavailable")
  })

  it("a lock or idle-session timeout is not a statement timeout", () => {
    expect(classifySqlError(fromServer("55P03", "canceling statement due to lock timeout"))).toBe("other")
  })
})
