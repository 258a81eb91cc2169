import { Effect } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import type { ImportResult } from "@tks/core/org-import/schema"
import { narrators, quiet } from "@tks/core/testing/narrators"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId } from "@tks/domain/ids"
import { once } from "./once.js"
import { importFixture, raw } from "./server.js"

/**
 * The callers of the narration contract tests: the people of
 * @tks/core/testing/narrators (tokens with narration:synthesize), quiet's
 * admin `quinn` (another organization), and the bad tokens.
 */
export interface Narrators {
  readonly result: ImportResult
  readonly quiet: ImportResult
  /** A token by person key (`quinn` is quiet's admin). */
  readonly token: (key: string) => string
  readonly badTokens: Readonly<Record<"none" | "invalid" | "expired" | "revoked", string | undefined>>
}

const known = (record: Readonly<Record<string, string>>, key: string) => {
  const value = record[key]
  if (value === undefined) throw new Error(`The narrators fixture has no token for ${key}`)
  return value
}

/** The narrators and quiet organizations, imported once per test file (each file has its own database). */
export const narratorsOnce = once(
  Effect.gen(function*() {
    const result = yield* importFixture(narrators)
    const other = yield* importFixture(quiet)
    const authenticator = yield* Authenticator
    yield* authenticator.revoke(Caller.system("test"), AccessTokenId.make(known(result.tokenIds, "revoked"))).pipe(Effect.orDie)
    const token = (key: string) => (key === "quinn" ? known(other.tokens, key) : known(result.tokens, key))
    const made: Narrators = {
      result,
      quiet: other,
      token,
      badTokens: { none: undefined, invalid: "tks_this-token-was-never-issued", expired: token("expired"), revoked: token("revoked") }
    }
    return made
  })
)

export const synthesize = (token: string | undefined, body: unknown) =>
  raw("POST", "/v1/narration/synthesize", { token, body: JSON.stringify(body) })

export { startMonthAt, usedThisMonth } from "../../../../packages/core/test/support/narration-rows.js"
