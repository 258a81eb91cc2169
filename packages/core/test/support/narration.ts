import { ConfigProvider, Layer, Logger, LogLevel } from "effect"
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
  Layer.provide(Layer.setConfigProvider(settings)),
  // The failures these tests cause on purpose are logged as warnings.
  Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
)

export const narratorsOnce = () => importedOnce({ narrators, quiet })

/** The narration policy's access for an actor (a denial fails the test). */
export const narrating = (actor: Actor) => allowed(actor, policies.narration.synthesize)

export { requestRecords, startMonthAt, usedThisMonth } from "./narration-rows.js"
