import { FileSystem, Path } from "@effect/platform"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { seedDemoIfEmpty } from "@tks/core/demo/seed"
import { DatabaseConfig } from "@tks/db/config"

/** The demo organization's tokens, when this database holds the demo organization and we know them. */
export class DemoTokens extends Context.Tag("@tks/server/DemoTokens")<DemoTokens, Option.Option<Record<string, string>>>() {}

const TokensFile = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))

/**
 * Created owner-only (0600) from the first byte: a file made readable and
 * narrowed afterwards can be opened in between, and a file left from an
 * earlier database would keep its old mode, so that one is removed first.
 */
const writeOwnerOnly = (fs: FileSystem.FileSystem, file: string, content: string) =>
  fs.remove(file, { force: true }).pipe(
    Effect.zipRight(fs.writeFileString(file, content, { flag: "wx", mode: 0o600 }))
  )

/**
 * On first start with an empty database the demo organization is created.
 * Its tokens exist only as hashes in the database, so on the embedded
 * database they are also kept beside the data (DATA_DIR/demo-tokens.json)
 * for later starts to print again.
 */
export const DemoSeedLive = (enabled: boolean) =>
  Layer.effect(
    DemoTokens,
    Effect.gen(function*() {
      if (!enabled) return Option.none()
      const fs = yield* FileSystem.FileSystem
      const path = yield* Path.Path
      const config = yield* DatabaseConfig
      const embedded = Option.isNone(config.url) && config.dataDir !== "memory://"
      const file = path.join(config.dataDir, "demo-tokens.json")
      const seeded = yield* seedDemoIfEmpty
      if (Option.isSome(seeded)) {
        yield* Effect.logInfo(`demo organization created: ${seeded.value.organizationId}`)
        if (embedded) yield* writeOwnerOnly(fs, file, JSON.stringify(seeded.value.tokens, null, 2))
        return Option.some(seeded.value.tokens)
      }
      if (!embedded || !(yield* fs.exists(file))) return Option.none()
      return yield* fs.readFileString(file).pipe(Effect.flatMap(Schema.decode(TokensFile)), Effect.option)
    }).pipe(Effect.orDie)
  )
