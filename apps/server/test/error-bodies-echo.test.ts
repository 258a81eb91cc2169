import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { summarizeDecodeIssues } from "@tks/domain/decode-issues"
import { withCallerMatrix } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

describe("decode issues, reshaped", () => {
  it("the branches of one parameter become one issue naming every allowed literal", () => {
    const issues = summarizeDecodeIssues([
      { path: ["status"], message: "Expected \"active\", actual \"x\"" },
      { path: ["status"], message: "Expected \"deactivated\", actual \"x\"" },
      { path: ["status"], message: "Expected \"all\", actual \"x\"" },
      { path: ["status"], message: "Expected undefined, actual \"x\"" }
    ])
    expect(issues).toEqual([{ path: "status", message: "Expected \"active\" | \"deactivated\" | \"all\", actual \"x\"" }])
  })

  it("an optional object with a problem inside is named only where the problem is, not also as \"expected undefined\"", () => {
    const issues = summarizeDecodeIssues([
      { path: ["due", "hours"], message: "is unexpected, expected: \"type\" | \"days\"" },
      { path: ["due"], message: "Expected undefined, actual {\"type\":\"days\",\"hours\":3}" },
      { path: ["note"], message: "Expected undefined, actual 3" },
      { path: ["note"], message: "Expected string, actual 3" }
    ])
    expect(issues).toEqual([
      { path: "due.hours", message: "is unexpected, expected: \"type\" | \"days\"" },
      { path: "note", message: "Expected string, actual 3" }
    ])
    expect(summarizeDecodeIssues([{ path: ["due"], message: "Expected undefined, actual 3" }])).toEqual([
      { path: "due", message: "Expected undefined, actual 3" }
    ])
  })

  it("echoed input, quoted or not, is cut to 40 characters and an ellipsis", () => {
    const long = "y".repeat(9_000)
    const [quoted] = summarizeDecodeIssues([{ path: ["limit"], message: `Unable to decode "${long}" into a number` }])
    expect(quoted!.message).toBe(`Unable to decode "${"y".repeat(40)}…" into a number`)
    const [array] = summarizeDecodeIssues([{ path: ["status"], message: `Expected "a", actual [${"\"z\",".repeat(3_000)}"z"]` }])
    expect(array!.message.length).toBeLessThan(80)
  })
})

let adminToken: string | undefined
const admin = Effect.suspend(() =>
  adminToken !== undefined
    ? Effect.succeed(adminToken)
    : withCallerMatrix({ organization: { name: "Echo Org" } }).pipe(Effect.map((m) => (adminToken = m.tokens.admin)))
)

layer(TestServerLive, { excludeTestServices: true })("validation errors quote a short prefix", (it) => {
  it.effect("a 9 KB bad value makes a small answer: at most 40 characters of it are quoted", () =>
    Effect.gen(function*() {
      const token = yield* admin
      const value = "x".repeat(9_000)
      // status and noManager quote the value; limit's own message names the rule and quotes nothing.
      for (const [parameter, quoted] of [["status", true], ["limit", false], ["noManager", true]] as const) {
        const response = yield* raw("GET", `/v1/members?${parameter}=${value}`, { token })
        expect(response.status, parameter).toBe(400)
        expect(response.text.length, parameter).toBeLessThan(600)
        if (quoted) expect(response.json.message, parameter).toContain(`${"x".repeat(40)}…`)
        expect(response.text, parameter).not.toContain("x".repeat(41))
      }
    }))

  it.effect("an enum error names every allowed value, not only the first", () =>
    Effect.gen(function*() {
      const token = yield* admin
      const status = yield* raw("GET", "/v1/members?status=retired", { token })
      expect(status.json.message).toBe("status: Expected \"active\" | \"deactivated\" | \"all\", actual \"retired\"")
      expect(status.json.issues).toEqual([{ path: "status", message: "Expected \"active\" | \"deactivated\" | \"all\", actual \"retired\"" }])
      const noManager = yield* raw("GET", "/v1/members?noManager=yes", { token })
      expect(noManager.json.message).toContain("\"true\" | \"false\"")
      const outcome = yield* raw("GET", "/v1/directory-sync/events?outcome=MAYBE", { token })
      for (const value of ["APPLIED", "SKIPPED", "REJECTED", "FAILED"]) expect(outcome.json.message).toContain(`"${value}"`)
    }))
})
