import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { ScimInvalid } from "@tks/core/scim/user-resource"

const paramsOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://scim.invalid").searchParams

/** Always answered, whatever `attributes` or `excludedAttributes` say (RFC 7643 section 7, `returned: always`). */
const ALWAYS = new Set(["id", "schemas", "meta"])

/**
 * A list's `filter`, `startIndex` (1-based, default 1) and `count`
 * (default and most: `max`; a larger one is cut to it). A start or count
 * that is not a whole number is invalidValue.
 */
export const listQuery = (request: HttpServerRequest.HttpServerRequest, max: number) =>
  Effect.gen(function*() {
    const params = paramsOf(request)
    const whole = (name: string, fallback: number, least: number) => {
      const raw = params.get(name)
      if (raw === null || raw.trim() === "") return Effect.succeed(fallback)
      return /^\d{1,9}$/.test(raw.trim())
        ? Effect.succeed(Math.max(least, Number(raw.trim())))
        : Effect.fail(new ScimInvalid({ scimType: "invalidValue", detail: `${name} must be a whole number, not ${JSON.stringify(raw)}` }))
    }
    const filter = params.get("filter")
    return {
      filter: filter === null || filter.trim() === "" ? null : filter,
      startIndex: yield* whole("startIndex", 1, 1),
      count: Math.min(max, yield* whole("count", max, 0))
    }
  })

/**
 * The resource with only the top-level attributes `attributes` names, or
 * without those `excludedAttributes` names (RFC 7644 section 3.9; names
 * in any case, a sub-attribute keeping its parent); `id`, `schemas` and
 * `meta` always stay.
 */
export const projectAttributes = (resource: Record<string, unknown>, request: HttpServerRequest.HttpServerRequest) => {
  const params = paramsOf(request)
  const names = (name: string) => {
    const raw = params.get(name)
    return raw === null || raw.trim() === ""
      ? null
      : new Set(raw.split(",").map((part) => part.trim().toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/, "").split(".")[0]!))
  }
  const only = names("attributes")
  const except = names("excludedAttributes")
  if (only === null && except === null) return Effect.succeed(resource)
  const kept = Object.entries(resource).filter(([key]) => {
    const lower = key.toLowerCase()
    if (ALWAYS.has(lower)) return true
    if (only !== null) return only.has(lower)
    return !except!.has(lower)
  })
  return Effect.succeed(Object.fromEntries(kept))
}

/** Whether the request leaves `members` out (excludedAttributes=members), so the list need not read them. */
export const excludesMembers = (request: HttpServerRequest.HttpServerRequest) =>
  (paramsOf(request).get("excludedAttributes") ?? "").split(",").some((name) => name.trim().toLowerCase() === "members")
