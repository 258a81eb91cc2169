import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { narrationMonth, narrationMonthlyAllowance, narrationVoiceIds } from "@tks/domain/narration"
import { auditRowsWhere, shownEvents } from "./support/journal.js"
import { narratorsOnce, startMonthAt, synthesize } from "./support/narrators.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * Narration's trace (docs/domain.md, Events and the audit log), read as the
 * narrators' organization admin: each narration kept is an audit row with
 * its characters, voice and outcome (never the text); the one whose
 * characters fill the month's allowance is `narration.allowance_exhausted`,
 * with its event. When exactly that happens: packages/core's
 * narration-allowance-exhausted test.
 */
const setup = narratorsOnce

layer(TestServerLive, { excludeTestServices: true })("narration's events and audit rows", (it) => {
  describe("POST /v1/narration/synthesize", () => {
    it.effect("a narration is narration.synthesized with its characters, voice and outcome, never the text", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        yield* startMonthAt(result.organizationId, 0)
        const response = yield* synthesize(token("viewer"), { text: "  Mind the forklift lane.  ", voiceId: narrationVoiceIds[2] })
        expect(response.status, response.text.slice(0, 300)).toBe(200)
        const viewer = result.ids.people.viewer!
        const [row, ...others] = yield* auditRowsWhere(token("admin"), { actor: viewer, type: "narration.synthesized" })
        expect(others).toEqual([])
        expect(row).toMatchObject({
          actor: { type: "person", personId: viewer, tokenId: result.tokenIds.viewer },
          targets: [{ type: "narration_request", id: expect.stringMatching(/^nar/) }],
          changes: { characters: { new: 23 }, voiceId: { new: narrationVoiceIds[2] }, outcome: { new: "COMPLETED" } }
        })
        expect(JSON.stringify(row)).not.toContain("forklift")
      }))

    it.effect("the narration that fills the month's allowance is narration.allowance_exhausted, its event naming the month and the allowance; a refusal after it is not recorded", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        yield* startMonthAt(result.organizationId, narrationMonthlyAllowance - 9)
        expect((yield* synthesize(token("reader01"), { text: "Last one." })).status).toBe(200)
        expectError(yield* synthesize(token("reader02"), { text: "One more" }), 429, "NARRATION_QUOTA_EXCEEDED", "used up")

        const month = narrationMonth(Date.now()).key
        const [event] = yield* shownEvents(token("admin"), "narration.allowance_exhausted", (found) => found.data.month === month, 1)
        expect(event).toMatchObject({
          organizationId: result.organizationId,
          actor: { type: "person", personId: result.ids.people.reader01 },
          data: { month, allowance: narrationMonthlyAllowance }
        })
        const rows = yield* auditRowsWhere(token("admin"), { type: "narration.allowance_exhausted" })
        expect(rows.map((row) => [row.actor.personId, row.changes.characters])).toEqual([[result.ids.people.reader01, { new: 9 }]])
        expect(yield* auditRowsWhere(token("admin"), { actor: result.ids.people.reader02! })).toEqual([])
      }))
  })
})
