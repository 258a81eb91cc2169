import { randomUUID } from "node:crypto"
import { readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type { PGlite } from "@electric-sql/pglite"
import { Effect, type Scope } from "effect"
import { IN_MEMORY, openPGlite } from "./embedded.js"
import type { EmbeddedDatabaseError } from "./embedded-error.js"

// An image belongs to one PGlite build; its wasm file's size and mtime name it.
// `kind` says what the image holds (a bare initdb, or a migrated schema's key).
export const imagePath = (kind: string) =>
  Effect.promise(async () => {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
    const wasm = await stat(join(dirname(entry), "pglite.wasm"))
    return join(tmpdir(), `tks-pglite-${kind}-${wasm.size}-${Math.round(wasm.mtimeMs)}.tar`)
  })

const loadImage = (path: string) =>
  Effect.promise(() => readFile(path).then((bytes) => new Blob([bytes]), () => undefined))

// Written under a unique name and renamed into place: test files start in
// parallel, and a reader must never see half an image.
export const saveImage = (db: PGlite, path: string) =>
  Effect.promise(async () => {
    await db.exec("CHECKPOINT")
    const image = await db.dumpDataDir("none")
    const partial = `${path}.${randomUUID()}.partial`
    await writeFile(partial, new Uint8Array(await image.arrayBuffer()))
    await rename(partial, path)
  }).pipe(Effect.catchAllDefect((cause) => Effect.logWarning("Could not cache the PGlite image", cause)))

/**
 * A brand-new in-memory PGlite, started from a cached image of a freshly
 * initialised data directory when there is one. Why: initdb is most of
 * PGlite's start (2 to 9 s on a busy machine, against about 1 s to load the
 * image), and every test file starts its own database.
 */
export const openFreshPGlite: Effect.Effect<PGlite, EmbeddedDatabaseError, Scope.Scope> = Effect.gen(function*() {
  const path = yield* imagePath("initdb")
  const cached = yield* openImage(path)
  if (cached !== undefined) return cached
  const db = yield* openPGlite(IN_MEMORY)
  yield* saveImage(db, path)
  return db
})

/** An in-memory PGlite from the image at `path`, or undefined when there is none (an unreadable one is removed). */
export const openImage = (path: string): Effect.Effect<PGlite | undefined, never, Scope.Scope> =>
  Effect.gen(function*() {
    const image = yield* loadImage(path)
    if (image === undefined) return undefined
    const fromImage = yield* Effect.either(openPGlite(IN_MEMORY, image))
    if (fromImage._tag === "Right") return fromImage.right
    yield* Effect.logWarning("Discarding an unreadable PGlite image", fromImage.left)
    yield* Effect.promise(() => rm(path, { force: true }))
    return undefined
  })
