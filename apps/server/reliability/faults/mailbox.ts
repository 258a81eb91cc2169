import { mkdirSync, watch } from "node:fs"

/**
 * Counts the messages delivered into the local mailbox folder, by file: a
 * message is written to a temporary name and renamed onto its own name, so
 * each rename onto a message's name is one delivery of it (a second one
 * replaces the file, which counting the files would not show).
 */
export const watchMailbox = (dir: string) => {
  mkdirSync(dir, { recursive: true })
  const deliveries = new Map<string, number>()
  const watcher = watch(dir, { recursive: true }, (event, name) => {
    if (event !== "rename" || name === null) return
    const file = name.split("/").pop() ?? name
    // Not a temporary file, nor the folder of a channel (email/, sms/) being made.
    if (file.startsWith(".") || !/\.(eml|txt)$/.test(file)) return
    deliveries.set(name, (deliveries.get(name) ?? 0) + 1)
  })
  return {
    deliveries,
    close: () => watcher.close()
  }
}
