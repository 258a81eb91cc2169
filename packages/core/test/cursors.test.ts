import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Schema } from "effect"
import { Cursors, makeCursors } from "@tks/core/common/cursors"

const TestCursors = Layer.succeed(Cursors, Cursors.make(makeCursors("test-secret")))

const Key = Schema.Tuple(Schema.String, Schema.String)

describe("cursors", () => {
  it.effect("a cursor read back in its own listing yields the key it was made from", () =>
    Effect.gen(function*() {
      const cursors = yield* Cursors
      const cursor = cursors.encode("members:org_1", ["ada", "usr_1"])
      expect(yield* cursors.decode("members:org_1", cursor, Key)).toEqual(["ada", "usr_1"])
    }).pipe(Effect.provide(TestCursors)))

  it.effect("a cursor from another listing, a tampered one, or one with a stray character is refused", () =>
    Effect.gen(function*() {
      const cursors = yield* Cursors
      const cursor = cursors.encode("members:org_1", ["ada", "usr_1"])
      const [payload, signature] = cursor.split(".") as [string, string]
      const forged = `${Buffer.from(JSON.stringify(["zed", "usr_9"])).toString("base64url")}.${signature}`
      for (const [listing, candidate] of [
        ["members:org_2", cursor],
        ["members:org_1", forged],
        ["members:org_1", `${cursor}x`],
        ["members:org_1", `${payload}`],
        ["members:org_1", "garbage"],
        ["members:org_1", ""]
      ] as const) {
        const exit = yield* Effect.exit(cursors.decode(listing, candidate, Key))
        expect(Exit.isFailure(exit), `${listing} ${candidate}`).toBe(true)
      }
    }).pipe(Effect.provide(TestCursors)))

  it.effect("a correctly signed cursor whose key has the wrong shape is refused before any SQL", () =>
    Effect.gen(function*() {
      const cursors = yield* Cursors
      const cursor = cursors.encode("teams:org_1", [42, null])
      const exit = yield* Effect.exit(cursors.decode("teams:org_1", cursor, Key))
      expect(Exit.isFailure(exit)).toBe(true)
    }).pipe(Effect.provide(TestCursors)))
})
