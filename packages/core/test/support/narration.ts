import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { narrators, quiet } from "@tks/core/testing/narrators"
import type { Actor } from "@tks/domain/actor"
import { policies } from "@tks/domain/policies"
import { NarrationRepo } from "../../src/narration/repo.js"
import { Narration } from "../../src/narration/service.js"
import { FixtureImporter } from "../../src/org-import/importer.js"
import { allowed, importedOnce } from "./access.js"
import { scriptedSpeech } from "./scripted-speech.js"

/** The speech stand-in of the narration core tests (its `calls` show what was spoken). */
export const speech = scriptedSpeech()

/** Speech gives up after 400 ms here, so a test of a provider that never answers is quick. */
const settings = ConfigProvider.fromMap(new Map([["NARRATION_SPEECH_TIMEOUT_MS", "400"]])).pipe(
  ConfigProvider.orElse(() => ConfigProvider.fromEnv())
)

export const NarrationTestLayer = Layer.mergeAll(FixtureImporter.Default, Narration.Default, NarrationRepo.Default).pipe(
  Layer.provide(speech.layer),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Layer.setConfigProvider(settings))
)

export const narratorsOnce = () => importedOnce({ narrators, quiet })

/** The narration policy's access for an actor (a denial fails the test). */
export const narrating = (actor: Actor) => allowed(actor, policies.narration.synthesize)

/** The organization's allowance row for this UTC month (0 when there is none). */
export const usedThisMonth = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ used: number }>`
      SELECT used FROM narration_allowances WHERE org_id = ${orgId} AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date`
    return rows[0]?.used ?? 0
  })

/** Sets this month's count, as if `used` characters had been narrated already, and forgets earlier requests. */
export const startMonthAt = (orgId: string, used: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DELETE FROM narration_requests WHERE org_id = ${orgId}`
    yield* sql`
      INSERT INTO narration_allowances (org_id, month, used) VALUES (${orgId}, date_trunc('month', now() AT TIME ZONE 'UTC')::date, ${used})
      ON CONFLICT (org_id, month) DO UPDATE SET used = excluded.used`
  })

/** The organization's request records, oldest first. */
export const requestRecords = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ id: string; outcome: string; characters: number; token_id: string; user_id: string; voice_id: string; provider: string; settled: boolean }>`
      SELECT id, outcome, characters, token_id, user_id, voice_id, provider, settled_at IS NOT NULL AS settled
      FROM narration_requests WHERE org_id = ${orgId} ORDER BY requested_at, id`
  })
