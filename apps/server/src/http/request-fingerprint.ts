import { createHash } from "node:crypto"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

// Object keys sorted at every depth: key order and whitespace do not change what a body asks.
const sorted = (value: Json): Json => {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== "object") return value
  const object = value as { readonly [key: string]: Json }
  const result: Record<string, Json> = {}
  for (const key of Object.keys(object).sort()) result[key] = sorted(object[key]!)
  return result
}

/** The body as canonical JSON (sorted keys, no whitespace) when it parses; its text as it came otherwise. */
export const canonicalBody = (text: string): string => {
  if (text === "") return ""
  try {
    return JSON.stringify(sorted(JSON.parse(text) as Json))
  } catch {
    return text
  }
}

/**
 * What an idempotent write compares to tell the same request from another:
 * a SHA-256 of its method, path and query as sent, and its body as canonical
 * JSON. The body is the text the server reads (UTF-8), which is all any
 * route acts on.
 */
export const requestFingerprint = (method: string, url: string, body: string): string =>
  createHash("sha256").update(JSON.stringify([method, url, canonicalBody(body)])).digest("hex")
