import { chmod, mkdir, readdir, stat } from "node:fs/promises"
import { join } from "node:path"
import { NodeFS } from "@electric-sql/pglite/nodefs"

/** Bits an owner-only file or directory must not have (group and others). */
const NOT_OWNER = 0o077

type InitOptions = Parameters<NodeFS["init"]>[1]
type Initialized = ReturnType<NodeFS["init"]>
type Attributes = { readonly mode?: number }
type Setattr = (target: unknown, attributes: Attributes) => unknown
type Mknod = (parent: unknown, name: string, mode: number, dev: number) => unknown

interface PatchableNodeFS {
  readonly node_ops: { mknod: Mknod; setattr: Setattr }
  readonly stream_ops: { setattr: Setattr }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null
const hasFunctions = (value: unknown, ...names: Array<string>) =>
  isRecord(value) && names.every((name) => typeof value[name] === "function")

const isPatchable = (nodefs: unknown): nodefs is PatchableNodeFS =>
  isRecord(nodefs) && hasFunctions(nodefs["node_ops"], "mknod", "setattr") &&
  hasFunctions(nodefs["stream_ops"], "setattr")

const ownerOnlyMode = (mode: number) => mode & ~NOT_OWNER
const ownerOnlyAttributes = (attributes: Attributes): Attributes =>
  attributes.mode === undefined ? attributes : { ...attributes, mode: ownerOnlyMode(attributes.mode) }

/**
 * Why the files were 0666: emscripten has no umask. Its open(O_CREAT) creates
 * the file and then chmods it to the mode PostgreSQL asked for, and PGlite
 * writes the initial cluster with emscripten's default, 0666; NODEFS passes
 * that chmod to the real file, which bypasses the process umask. A umask
 * around PGlite would therefore change nothing. Masking the mode where NODEFS
 * creates and chmods a file is the one place that sees every write.
 */
const keepOwnerOnly = (nodefs: PatchableNodeFS) => {
  const { mknod, setattr } = nodefs.node_ops
  const streamSetattr = nodefs.stream_ops.setattr
  nodefs.node_ops.mknod = (parent, name, mode, dev) => mknod(parent, name, ownerOnlyMode(mode), dev)
  nodefs.node_ops.setattr = (node, attributes) => setattr(node, ownerOnlyAttributes(attributes))
  nodefs.stream_ops.setattr = (stream, attributes) => streamSetattr(stream, ownerOnlyAttributes(attributes))
}

/** PGlite's NODEFS data directory, with every file it creates 0600 and every directory 0700. */
export class OwnerOnlyNodeFS extends NodeFS {
  override init(pg: Parameters<NodeFS["init"]>[0], options: InitOptions): Initialized {
    // Runs before NodeFS's own preRun mounts the directory, so no file escapes.
    const patch = (module: { readonly FS: { readonly filesystems: { readonly NODEFS: unknown } } }) => {
      const nodefs = module.FS.filesystems.NODEFS
      if (!isPatchable(nodefs)) throw new Error("PGlite's NODEFS is not the one this service knows how to keep owner-only")
      keepOwnerOnly(nodefs)
    }
    return super.init(pg, { ...options, preRun: [...(options.preRun ?? []), patch] })
  }
}

/** Creates `dataDir` and any missing parents owner-only (PGlite itself would not create the parents). */
export const createOwnerOnlyDir = (dataDir: string) => mkdir(dataDir, { recursive: true, mode: 0o700 })

/**
 * Removes group and other permissions from `dataDir` and everything in it:
 * a directory made by an earlier version holds 0666 files, and a directory
 * that already existed keeps the mode it had.
 */
export const makeOwnerOnly = async (dataDir: string): Promise<void> => {
  const tighten = async (path: string): Promise<void> => {
    const { mode } = await stat(path)
    if ((mode & NOT_OWNER) !== 0) await chmod(path, ownerOnlyMode(mode) & 0o7777)
  }
  const walk = async (dir: string): Promise<void> => {
    await tighten(dir)
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) await tighten(path)
    }
  }
  await walk(dataDir)
}
