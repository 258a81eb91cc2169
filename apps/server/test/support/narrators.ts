import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import type { ImportResult } from "@tks/core/org-import/schema"
import { narrators, quiet } from "@tks/core/testing/narrators"
import { Caller } from "@tks/domain/actor"
import { AccessTokenId } from "@tks/domain/ids"
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

let made: Narrators | undefined

/** The narrators and quiet organizations, imported once per test file (each file has its own database). */
export const narratorsOnce = Effect.suspend(() =>
  made !== undefined
    ? Effect.succeed(made)
    : Effect.gen(function*() {
      const result = yield* importFixture(narrators)
      const other = yield* importFixture(quiet)
      const authenticator = yield* Authenticator
      yield* authenticator.revoke(Caller.system("test"), AccessTokenId.make(known(result.tokenIds, "revoked"))).pipe(Effect.orDie)
      const token = (key: string) => (key === "quinn" ? known(other.tokens, key) : known(result.tokens, key))
      made = {
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

/** Sets this UTC month's count of an organization, as if that much had been narrated already, and forgets its request records. */
export const startMonthAt = (orgId: string, used: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DELETE FROM narration_requests WHERE org_id = ${orgId}`
    yield* sql`
      INSERT INTO narration_allowances (org_id, month, used) VALUES (${orgId}, date_trunc('month', now() AT TIME ZONE 'UTC')::date, ${used})
      ON CONFLICT (org_id, month) DO UPDATE SET used = excluded.used`
  })

/** This UTC month's count of an organization. */
export const usedThisMonth = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ used: number }>`
      SELECT used FROM narration_allowances WHERE org_id = ${orgId} AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date`
    return rows[0]?.used ?? 0
  })
