import { Either } from "effect"
import { type ScimPatchOperation, scimPatch } from "scim-patch"
import type { ScimErrorType } from "@tks/domain/scim"
import { ScimInvalid } from "./user-resource.js"
import { isRecord } from "./json.js"

/**
 * A SCIM PATCH (RFC 7644 section 3.5.2) applied to a resource, by
 * `scim-patch`, in the dialects directories send: `op` in any case
 * ("Replace" from Entra ID), a replace without a path carrying a map of
 * attributes (Okta's `{"active": false}`), paths with value filters
 * (`emails[type eq "work"].value`). Removing what is already absent is not
 * an error: a directory retrying a removal that landed must not be refused.
 * The result is checked by the resource's own projection afterwards.
 */

const OPS = new Set(["add", "replace", "remove"])


const invalid = (scimType: ScimErrorType, detail: string) => Either.left(new ScimInvalid({ scimType, detail }))

/** The operations of a PatchOp body, their `op` lower-cased; Left when the body is not one. */
export const patchOperations = (body: unknown): Either.Either<ReadonlyArray<ScimPatchOperation>, ScimInvalid> => {
  if (!isRecord(body)) return invalid("invalidSyntax", "The body must be a SCIM PatchOp object")
  const operations = Object.entries(body).find(([key]) => key.toLowerCase() === "operations")?.[1]
  if (!Array.isArray(operations) || operations.length === 0) return invalid("invalidSyntax", "Operations must be a non-empty array")
  const read: Array<ScimPatchOperation> = []
  for (const [index, operation] of operations.entries()) {
    if (!isRecord(operation)) return invalid("invalidSyntax", `Operations[${index}] must be an object`)
    const field = (name: string) => Object.entries(operation).find(([key]) => key.toLowerCase() === name)?.[1]
    const op = field("op")
    if (typeof op !== "string" || !OPS.has(op.toLowerCase())) {
      return invalid("invalidSyntax", `Operations[${index}].op must be add, replace or remove, not ${JSON.stringify(op)}`)
    }
    const path = field("path")
    if (path !== undefined && (typeof path !== "string" || path.trim() === "")) return invalid("invalidPath", `Operations[${index}].path must be a non-empty string`)
    const value = field("value")
    const lower = op.toLowerCase() as "add" | "replace" | "remove"
    if (lower === "remove" && path === undefined) return invalid("noTarget", `Operations[${index}]: remove needs a path`)
    if (lower !== "remove" && value === undefined) return invalid("invalidValue", `Operations[${index}]: ${lower} needs a value`)
    if (lower !== "remove" && path === undefined && !isRecord(value)) {
      return invalid("invalidValue", `Operations[${index}]: ${lower} without a path needs an object of attributes as its value`)
    }
    read.push({ op: lower, ...(path === undefined ? {} : { path: path as string }), ...(value === undefined ? {} : { value }) } as ScimPatchOperation)
  }
  return Either.right(read)
}

const scimTypeOf = (error: unknown): ScimErrorType => {
  const code = isRecord(error) || error instanceof Error ? (error as { scimCode?: unknown }).scimCode : undefined
  if (code === "noTarget" || code === "invalidPath" || code === "invalidValue") return code
  // A path that does not parse, or that leads through a value that is not an object (scim-patch throws a TypeError there).
  if (error instanceof TypeError || (error instanceof Error && /part of the path/i.test(error.message))) return "invalidPath"
  return "invalidSyntax"
}

/** `resource` unless it names another `id` than the one it has: a resource's id is the service's, never changed (mutability). */
export const keepingId = (id: string, resource: unknown): Either.Either<unknown, ScimInvalid> =>
  isRecord(resource) && resource["id"] !== undefined && resource["id"] !== id
    ? invalid("mutability", `id is ${id} and cannot be changed`)
    : Either.right(resource)

/** `resource` with `operations` applied in order (a copy; the argument is not changed). */
export const applyPatch = <T extends Record<string, unknown>>(
  resource: T,
  operations: ReadonlyArray<ScimPatchOperation>
): Either.Either<T, ScimInvalid> => {
  let patched = structuredClone(resource)
  for (const operation of operations) {
    try {
      patched = scimPatch(patched as never, [operation]) as T
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      // Already absent: the removal has nothing left to do.
      if (operation.op === "remove" && /doesn't exist|no record match/i.test(message)) continue
      return invalid(scimTypeOf(error), `${operation.op} ${"path" in operation && operation.path !== undefined ? operation.path : "(no path)"}: ${message}`)
    }
  }
  return Either.right(patched)
}
