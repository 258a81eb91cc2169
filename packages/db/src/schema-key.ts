import { createHash } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"

/**
 * A short digest of the migration sources (packages/db/src/migrations), so a
 * cached migrated database is used only while the schema it holds is the one
 * the code would build: editing or adding a migration changes the key.
 */
export const schemaKey: Effect.Effect<string> = Effect.promise(async () => {
  const dir = fileURLToPath(new URL("./migrations/", import.meta.url))
  const names = (await readdir(dir)).filter((name) => /\.[cm]?[jt]s$/.test(name)).sort()
  const hash = createHash("sha256")
  for (const name of names) {
    hash.update(name)
    hash.update("\0")
    hash.update(await readFile(`${dir}${name}`))
    hash.update("\0")
  }
  return hash.digest("hex").slice(0, 16)
}).pipe(Effect.cached, Effect.runSync)
