import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import {
  defaultVoiceId,
  narrationMonth,
  NarrationRequest,
  narrationVoiceIds,
  secondsUntilNextMonth,
  wordRuns,
  wordTimingsProblem
} from "@tks/domain/narration"
import { policies } from "@tks/domain/policies"
import { authorize, describePolicy, isAccess } from "@tks/domain/policy"
import type { OrgRole, Scope } from "@tks/domain/roles"

const decode = Schema.decodeUnknownEither(NarrationRequest)
const problemOf = (input: unknown) =>
  Either.match(decode(input), { onLeft: (error) => String(error.message), onRight: () => "accepted" })

describe("the narration request", () => {
  it("text is trimmed, then 1 to 1000 characters; characters are code points", () => {
    expect(Either.getOrThrow(decode({ text: "  Hello\n" })).text).toBe("Hello")
    expect(problemOf({ text: "   \n\t " })).toMatch(/text must not be empty/)
    expect(problemOf({ text: "" })).toMatch(/text must not be empty/)
    expect(problemOf({ text: "a".repeat(1000) })).toBe("accepted")
    expect(problemOf({ text: `  ${"a".repeat(1000)}  ` })).toBe("accepted")
    expect(problemOf({ text: "a".repeat(1001) })).toMatch(/at most 1000 characters/)
    // 1000 emoji are 2000 UTF-16 units but 1000 characters.
    expect(problemOf({ text: "😀".repeat(1000) })).toBe("accepted")
    expect(problemOf({ text: "😀".repeat(1001) })).toMatch(/at most 1000 characters/)
  })

  it("text that is not a string, is missing, or holds a NUL is refused", () => {
    expect(problemOf({})).not.toBe("accepted")
    expect(problemOf({ text: 42 })).not.toBe("accepted")
    expect(problemOf({ text: "a\u0000b" })).toMatch(/NUL/)
  })

  it("voiceId is one of the six catalog ids, optional; any other is refused naming every catalog id", () => {
    expect(narrationVoiceIds).toHaveLength(6)
    expect(defaultVoiceId).toBe("nPczCjzI2devNBz1zQrb")
    for (const voiceId of narrationVoiceIds) expect(problemOf({ text: "Hi", voiceId })).toBe("accepted")
    expect(Either.getOrThrow(decode({ text: "Hi" })).voiceId).toBeUndefined()
    const refused = problemOf({ text: "Hi", voiceId: "21m00Tcm4TlvDq8ikWAM" })
    for (const voiceId of narrationVoiceIds) expect(refused).toContain(voiceId)
    expect(problemOf({ text: "Hi", voiceId: "npczcjzi2devnbz1zqrb" })).not.toBe("accepted")
  })
})

describe("word runs and their timings", () => {
  it("runs are the whitespace-delimited pieces of the text as sent, punctuation attached, digits kept", () => {
    expect(wordRuns("Hello, world!  It's 42\u00A0degrees\n— ok.").map((r) => r.word)).toEqual(
      ["Hello,", "world!", "It's", "42", "degrees", "—", "ok."]
    )
    expect(wordRuns("a  bc")).toEqual([{ word: "a", start: 0, end: 1 }, { word: "bc", start: 3, end: 5 }])
  })

  const words = (...times: ReadonlyArray<readonly [string, number, number]>) => times.map(([word, start, end]) => ({ word, start, end }))

  it("timings that match the runs, never go back and end within the audio pass", () => {
    expect(wordTimingsProblem("Go now.", words(["Go", 0, 0.3], ["now.", 0.3, 0.8]), 1)).toBeUndefined()
    // A zero-length word (nothing spoken for "—") and shared starts are fine.
    expect(wordTimingsProblem("a — b", words(["a", 0, 0.2], ["—", 0.2, 0.2], ["b", 0.2, 0.5]), 0.5)).toBeUndefined()
  })

  it("a missing or extra word, a changed word, a time going back, an end before its start or past the audio, NaN: each is named", () => {
    expect(wordTimingsProblem("a b", words(["a", 0, 1]), 2)).toBe("expected 2 words, got 1")
    expect(wordTimingsProblem("a b", words(["a", 0, 1], ["c", 1, 2]), 2)).toMatch(/word 2 is "c", expected "b"/)
    expect(wordTimingsProblem("a b", words(["a", 0.5, 1], ["b", 0.2, 2]), 2)).toMatch(/word 2 starts before the word before it/)
    expect(wordTimingsProblem("a b", words(["a", 0, 1], ["b", 1.5, 1.2]), 2)).toMatch(/word 2 ends before it starts/)
    expect(wordTimingsProblem("a b", words(["a", 0, 1], ["b", 1, 2.5]), 2)).toMatch(/word 2 ends after the audio/)
    expect(wordTimingsProblem("a", words(["a", Number.NaN, 1]), 2)).toMatch(/not a number/)
    expect(wordTimingsProblem("a", words(["a", -0.1, 1]), 2)).toMatch(/ends before it starts/)
  })
})

describe("the UTC month of the allowance", () => {
  it("the month holding an instant, its first day, and when the next starts", () => {
    const at = Date.parse("2026-11-23T16:00:00.000Z")
    expect(narrationMonth(at)).toEqual({
      key: "2026-11",
      firstDay: "2026-11-01",
      startsAt: Date.parse("2026-11-01T00:00:00.000Z"),
      resetsAt: Date.parse("2026-12-01T00:00:00.000Z")
    })
    expect(narrationMonth(Date.parse("2026-12-31T23:59:59.999Z")).resetsAt).toBe(Date.parse("2027-01-01T00:00:00.000Z"))
  })

  it("Retry-After is the whole seconds until the next UTC month, at least 1", () => {
    expect(secondsUntilNextMonth(Date.parse("2026-11-30T23:59:00.000Z"))).toBe(60)
    expect(secondsUntilNextMonth(Date.parse("2026-11-30T23:59:59.500Z"))).toBe(1)
    expect(secondsUntilNextMonth(Date.parse("2026-02-01T00:00:00.000Z"))).toBe(28 * 86_400)
  })
})

describe("who may narrate", () => {
  const actor = (role: OrgRole, scopes: ReadonlyArray<Scope>) => ({
    organizationId: OrganizationId.make("org_1"),
    userId: UserId.make("usr_1"),
    role,
    teams: [],
    scopes,
    tokenId: AccessTokenId.make("tok_1")
  })

  it("every member but external accounts, with a token carrying narration:synthesize; the permission is any of three", () => {
    for (const role of ["owner", "admin", "billing-admin", "viewer"] as const) {
      expect(isAccess(authorize(actor(role, ["narration:synthesize"]), policies.narration.synthesize))).toBe(true)
      const unscoped = authorize(actor(role, ["content:write", "training:assign"]), policies.narration.synthesize)
      expect(unscoped).toMatchObject({ _tag: "Forbidden", message: "This token lacks the narration:synthesize scope needed to narrate text" })
    }
    expect(authorize(actor("external", ["narration:synthesize"]), policies.narration.synthesize)).toMatchObject({
      _tag: "Forbidden",
      message: "You may not narrate text: it needs one of the guide.create, video.create or content-review.create permissions"
    })
    expect(describePolicy(policies.narration.synthesize)).toContain(
      "Needs one of the guide.create, video.create or content-review.create permissions (owner, admin, billing-admin, viewer)."
    )
  })

  it("the month's usage is for organization admins only", () => {
    for (const role of ["owner", "admin", "billing-admin"] as const) {
      expect(isAccess(authorize(actor(role, []), policies.narration.usage))).toBe(true)
    }
    for (const role of ["viewer", "external"] as const) {
      expect(authorize(actor(role, ["narration:synthesize"]), policies.narration.usage)).toMatchObject({ _tag: "Forbidden" })
    }
  })
})
