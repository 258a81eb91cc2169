import { Either } from "effect"
import { SCIM_GROUP } from "@tks/domain/scim"
import { ScimInvalid } from "./user-resource.js"
import { attribute, isRecord } from "./json.js"

/**
 * A team as a SCIM Group resource, both ways: `displayName` is the team's
 * name, `members` its people (by this service's person ids, as the
 * directory received them when it provisioned each person).
 */

export interface GroupProjection {
  readonly displayName: string
  readonly externalId: string | null
  /** The people named as members, in the order given, each once; null when the resource does not say (a PATCH of the name only). */
  readonly memberIds: ReadonlyArray<string> | null
}



const invalid = (detail: string) => Either.left(new ScimInvalid({ scimType: "invalidValue", detail }))

/** The team a Group resource describes; Left with why when it cannot be accepted. */
export const projectGroup = (body: unknown): Either.Either<GroupProjection, ScimInvalid> => {
  if (!isRecord(body)) return invalid("The body must be a SCIM Group object")
  const displayName = attribute(body, "displayName")
  if (typeof displayName !== "string" || displayName.trim() === "") return invalid("displayName is required, a non-empty string")
  if (displayName.trim().length > 200) return invalid("displayName is at most 200 characters")
  const externalId = attribute(body, "externalId")
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string") return invalid("externalId must be a string")
  const members = attribute(body, "members")
  let memberIds: Array<string> | null = null
  if (members !== undefined && members !== null) {
    if (!Array.isArray(members)) return invalid("members must be an array")
    memberIds = []
    for (const [index, member] of members.entries()) {
      const value = isRecord(member) ? attribute(member, "value") : undefined
      if (typeof value !== "string" || value.trim() === "") return invalid(`members[${index}].value must be a person's id`)
      if (!memberIds.includes(value.trim())) memberIds.push(value.trim())
    }
  }
  return Either.right({
    displayName: displayName.trim(),
    externalId: typeof externalId === "string" && externalId.trim() !== "" ? externalId.trim() : null,
    memberIds
  })
}

/** Where the Users resources are, under the SCIM root. */
const USERS_ENDPOINT = "/Users"

export interface GroupRecord {
  readonly id: string
  readonly name: string
  readonly externalId: string | null
  readonly members: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly created: Date
}

/** The Group resource of `record`; `base` is the SCIM root the members' `$ref`s and `location` hang off. */
export const groupResource = (record: GroupRecord, base: string, options: { readonly members: boolean } = { members: true }) => ({
  schemas: [SCIM_GROUP],
  id: record.id,
  ...(record.externalId === null ? {} : { externalId: record.externalId }),
  displayName: record.name,
  ...(options.members
    ? { members: record.members.map((member) => ({ value: member.id, display: member.name, $ref: `${base}${USERS_ENDPOINT}/${member.id}` })) }
    : {}),
  meta: { resourceType: "Group", created: record.created.toISOString(), location: `${base}/Groups/${record.id}` }
})
