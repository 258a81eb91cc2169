import { Data, Either } from "effect"
import { SCIM_ENTERPRISE_USER, SCIM_USER, type ScimErrorType } from "@tks/domain/scim"
import { attribute, isRecord } from "./json.js"

/**
 * A person as a SCIM User resource, both ways. The directory's resource is
 * projected onto the columns this service acts on (the person's name,
 * email, phone, whether they are active, their manager); the rest of what
 * it sent is kept as it sent it, so reading the person back answers the
 * directory's own values. Entra ID and Okta differ in small ways this
 * accepts: booleans as the strings "True" and "False", a manager as a bare
 * id or as `{ "value": id }`.
 */

/**
 * A SCIM request whose resource cannot be accepted: a 400 (or 409) with its
 * `scimType`. `skipped` names why a request the directory may keep sending
 * was passed over rather than refused (DOMAIN_MISMATCH): its directory
 * event is SKIPPED with that reason, not REJECTED.
 */
export class ScimInvalid extends Data.TaggedError("ScimInvalid")<{
  readonly scimType: ScimErrorType
  readonly detail: string
  readonly status?: 400 | 409
  readonly skipped?: string
}> {}

/** The reason code a refusal is recorded with: `invalidValue` is INVALID_VALUE. */
export const refusalReason = (error: ScimInvalid) => error.skipped ?? error.scimType.replace(/[A-Z]/g, (upper) => `_${upper}`).toUpperCase()

/** What this service acts on, read off a User resource. */
export interface UserProjection {
  readonly userName: string
  readonly externalId: string | null
  /** Lower-cased: emails are compared without case everywhere. */
  readonly email: string
  readonly name: string
  /** E.164, or null when the directory sent none in that form. */
  readonly phone: string | null
  readonly active: boolean
  /** The directory's reference to the manager (this service's id, an externalId or a userName), or null. */
  readonly managerReference: string | null
  /** The rest of the resource as sent, to answer it back. */
  readonly attributes: Record<string, unknown>
}

/** Attributes the projection owns or that are never kept (a password is never stored, nor sent back). */
const NOT_KEPT = new Set(["schemas", "id", "meta", "username", "externalid", "active", "password"])

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const E164 = /^\+[1-9]\d{6,14}$/

const invalid = (detail: string) => Either.left(new ScimInvalid({ scimType: "invalidValue", detail }))


/** A SCIM boolean, as JSON or as the strings Entra ID sends ("True", "False"). */
export const scimBoolean = (value: unknown): boolean | undefined => {
  if (typeof value === "boolean") return value
  if (typeof value === "string") {
    const lower = value.trim().toLowerCase()
    if (lower === "true") return true
    if (lower === "false") return false
  }
  return undefined
}


const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

/** The multi-valued attribute's entry a person is reached by: the primary, else of `preferred` types in order, else the first. */
const preferredValue = (entries: unknown, preferred: ReadonlyArray<string>): string | null => {
  if (!Array.isArray(entries)) return null
  const valued = entries.filter(isRecord).filter((entry) => text(entry["value"]) !== null)
  const pick = valued.find((entry) => scimBoolean(entry["primary"]) === true) ??
    preferred.map((type) => valued.find((entry) => String(entry["type"] ?? "").toLowerCase() === type)).find((entry) => entry !== undefined) ??
    valued[0]
  return pick === undefined ? null : text(pick["value"])
}

/** A phone number as dialled, in E.164 when it reads as one once spaces, dots, dashes and brackets are gone. */
const e164 = (phone: string | null): string | null => {
  if (phone === null) return null
  const compact = phone.replace(/[\s().-]/g, "")
  return E164.test(compact) ? compact : null
}

const managerOf = (resource: Record<string, unknown>): Either.Either<string | null, ScimInvalid> => {
  const extension = attribute(resource, SCIM_ENTERPRISE_USER)
  if (extension === undefined || extension === null) return Either.right(null)
  if (!isRecord(extension)) return invalid(`${SCIM_ENTERPRISE_USER} must be an object`)
  const manager = attribute(extension, "manager")
  if (manager === undefined || manager === null) return Either.right(null)
  if (typeof manager === "string") return Either.right(text(manager))
  if (isRecord(manager)) {
    const value = attribute(manager, "value")
    if (value === undefined || value === null) return Either.right(null)
    if (typeof value === "string") return Either.right(text(value))
  }
  return invalid("manager must be an id, or an object with the manager's id as value")
}

/** The person a User resource describes; Left with why when it cannot be accepted. */
export const projectUser = (body: unknown): Either.Either<UserProjection, ScimInvalid> => {
  if (!isRecord(body)) return invalid("The body must be a SCIM User object")
  const userName = attribute(body, "userName")
  if (typeof userName !== "string" || userName.trim() === "") return invalid("userName is required, a non-empty string")
  const externalId = attribute(body, "externalId")
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string") return invalid("externalId must be a string")
  const activeValue = attribute(body, "active")
  const active = activeValue === undefined || activeValue === null ? true : scimBoolean(activeValue)
  if (active === undefined) return invalid(`active must be true or false, not ${JSON.stringify(activeValue)}`)
  const email = (preferredValue(attribute(body, "emails"), ["work"]) ?? userName.trim()).toLowerCase()
  if (!EMAIL.test(email)) return invalid(`The person needs an email: no email in emails, and userName ${JSON.stringify(userName)} is not one`)
  const names = attribute(body, "name")
  const parts = isRecord(names)
    ? [text(attribute(names, "givenName")), text(attribute(names, "familyName"))].filter((part) => part !== null).join(" ")
    : ""
  const name = text(attribute(body, "displayName")) ?? (isRecord(names) ? text(attribute(names, "formatted")) : null) ??
    (parts === "" ? null : parts) ?? userName.trim()
  const manager = managerOf(body)
  if (Either.isLeft(manager)) return Either.left(manager.left)
  const attributes: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) {
    if (NOT_KEPT.has(key.toLowerCase())) continue
    if (key.toLowerCase() === SCIM_ENTERPRISE_USER.toLowerCase() && isRecord(value)) {
      // The manager is held as the reporting line, and answered from it.
      const rest = Object.fromEntries(Object.entries(value).filter(([name]) => name.toLowerCase() !== "manager"))
      if (Object.keys(rest).length > 0) attributes[key] = rest
      continue
    }
    attributes[key] = value
  }
  return Either.right({
    userName: userName.trim(),
    externalId: text(externalId),
    email,
    name,
    phone: e164(preferredValue(attribute(body, "phoneNumbers"), ["mobile", "work"])),
    active,
    managerReference: manager.right,
    attributes
  })
}

/** A person as stored, for answering them as a User resource. */
export interface UserRecord {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly active: boolean
  readonly externalId: string | null
  readonly userName: string | null
  readonly attributes: Record<string, unknown> | null
  /** The manager: this service's id, or the directory's reference when it names no one known here. */
  readonly manager: { readonly value: string; readonly displayName: string | null } | null
  readonly created: Date
  readonly lastModified: Date
}

/** The ETag of a person's resource: weak, from when it last changed. */
export const userVersion = (record: { readonly lastModified: Date }) => `W/"${record.lastModified.getTime()}"`

/**
 * The User resource of `record` at `location`: the directory's attributes
 * as it sent them, with what this service holds in charge (name, email,
 * active, manager) as it stands.
 */
export const userResource = (record: UserRecord, location: string): Record<string, unknown> => {
  const kept = { ...record.attributes }
  const extensionKey = Object.keys(kept).find((key) => key.toLowerCase() === SCIM_ENTERPRISE_USER.toLowerCase())
  const extension = extensionKey === undefined ? {} : { ...(kept[extensionKey] as Record<string, unknown>) }
  if (extensionKey !== undefined) delete kept[extensionKey]
  for (const key of Object.keys(extension)) if (key.toLowerCase() === "manager") delete extension[key]
  if (record.manager !== null) {
    extension["manager"] = record.manager.displayName === null
      ? { value: record.manager.value }
      : { value: record.manager.value, displayName: record.manager.displayName }
  }
  const emails = Array.isArray(attribute(kept, "emails")) ? attribute(kept, "emails") : [{ value: record.email, type: "work", primary: true }]
  for (const key of Object.keys(kept)) if (["emails", "displayname"].includes(key.toLowerCase())) delete kept[key]
  const withExtension = Object.keys(extension).length > 0
  return {
    schemas: withExtension ? [SCIM_USER, SCIM_ENTERPRISE_USER] : [SCIM_USER],
    id: record.id,
    ...(record.externalId === null ? {} : { externalId: record.externalId }),
    userName: record.userName ?? record.email,
    ...kept,
    displayName: record.name,
    emails,
    active: record.active,
    ...(withExtension ? { [SCIM_ENTERPRISE_USER]: extension } : {}),
    meta: {
      resourceType: "User",
      created: record.created.toISOString(),
      lastModified: record.lastModified.toISOString(),
      location,
      version: userVersion(record)
    }
  }
}
